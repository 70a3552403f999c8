import type { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';

/** Validates an /api body or query with a zod schema, answering 400 with the failing field named. */
export function parseApiInput<Schema extends z.ZodType>(schema: Schema, value: unknown): z.infer<Schema> {
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const param = issue?.path.join('.') || null;
  throw new GatewayError('invalid_request_error', `Invalid ${param ?? 'input'}: ${issue?.message ?? 'invalid value'}`, {
    param,
  });
}
