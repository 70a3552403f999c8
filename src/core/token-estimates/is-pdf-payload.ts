import { decodeByteRange, type Base64Payload } from './base64-payload.js';

/** True when the payload is a PDF: by its declared media type, or by its `%PDF-` signature. */
export function isPdfPayload(payload: Base64Payload): boolean {
  if (payload.mediaType === 'application/pdf') return true;
  return decodeByteRange(payload, 0, 5).toString('latin1') === '%PDF-';
}
