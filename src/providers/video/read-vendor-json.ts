import { GatewayError } from '../../core/gateway-error.js';

/** Parses a vendor's 2xx JSON answer into an object; a body that is not a JSON object is the vendor's fault (502-class). */
export function readVendorJsonObject(bodyText: string, vendorName: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bodyText);
  } catch {
    throw new GatewayError('server_error', `${vendorName} answered with a body that is not JSON.`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new GatewayError('server_error', `${vendorName} answered with JSON that is not an object.`);
  }
  return parsed as Record<string, unknown>;
}

/** The field as a non-empty string, else undefined. */
export function readText(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The field as an object, else undefined. */
export function readObject(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}
