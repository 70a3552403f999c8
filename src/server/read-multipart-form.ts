import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../core/gateway-error.js';
import type { MultipartForm } from '../core/multipart-form.js';

// The form's types live in core so the client protocols that parse forms need nothing from the server.
export type { MultipartForm, UploadedFile } from '../core/multipart-form.js';

/** Errors the error handler maps itself (limits, oversized files) or that mean the client left mid-upload. */
const passThroughCodes = new Set([
  'FST_REQ_FILE_TOO_LARGE',
  'FST_FILES_LIMIT',
  'FST_PARTS_LIMIT',
  'FST_FIELDS_LIMIT',
  'FST_PROTO_VIOLATION',
  'FST_INVALID_JSON_FIELD_ERROR',
  'ECONNRESET',
  'ERR_STREAM_PREMATURE_CLOSE',
]);

/**
 * Reads a multipart/form-data body. Another content type gets 415; a form that cannot be read (no or a bad
 * boundary, a truncated body, malformed part headers) or a text field over the field size limit gets 400.
 */
export async function readMultipartForm(request: FastifyRequest): Promise<MultipartForm> {
  if (!request.isMultipart()) {
    throw new GatewayError('unsupported_media_type', 'This endpoint takes multipart/form-data with the file fields.');
  }
  const form: MultipartForm = { fields: {}, repeatedFields: [], files: [] };
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        form.files.push({
          fieldName: part.fieldname,
          filename: part.filename || 'upload',
          contentType: part.mimetype,
          data: await part.toBuffer(),
        });
        continue;
      }
      if (part.valueTruncated) {
        throw new GatewayError(
          'invalid_request_error',
          `The form field '${part.fieldname.slice(0, 100)}' is longer than this gateway accepts.`,
          { param: part.fieldname.slice(0, 100) },
        );
      }
      if (part.fieldname.endsWith('[]')) form.repeatedFields.push([part.fieldname, String(part.value)]);
      else form.fields[part.fieldname] = String(part.value);
    }
  } catch (error) {
    throw mapMultipartError(error);
  }
  return form;
}

function mapMultipartError(error: unknown): unknown {
  if (error instanceof GatewayError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && passThroughCodes.has(code)) return error;
  // busboy's own errors ("Unexpected end of form", "Malformed part header", "Multipart: Boundary not found").
  const reason = error instanceof Error ? ` (${error.message.slice(0, 120)})` : '';
  return new GatewayError('invalid_request_error', `The multipart form could not be read${reason}.`);
}
