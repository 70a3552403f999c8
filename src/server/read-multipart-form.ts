import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../core/gateway-error.js';

/** One uploaded file, held in memory (bounded by the upload limit). */
export interface UploadedFile {
  fieldName: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** The text fields and files of a multipart request. */
export interface MultipartForm {
  fields: Record<string, string>;
  /** repeated fields such as `timestamp_granularities[]`, in order */
  repeatedFields: Array<[string, string]>;
  files: UploadedFile[];
}

/** Reads a multipart/form-data body; a non-multipart request gets a clear 400. */
export async function readMultipartForm(request: FastifyRequest): Promise<MultipartForm> {
  if (!request.isMultipart()) {
    throw new GatewayError('invalid_request_error', 'This endpoint takes multipart/form-data with the file fields.');
  }
  const form: MultipartForm = { fields: {}, repeatedFields: [], files: [] };
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      form.files.push({ fieldName: part.fieldname, filename: part.filename || 'upload', contentType: part.mimetype, data: await part.toBuffer() });
    } else if (part.fieldname.endsWith('[]')) {
      form.repeatedFields.push([part.fieldname, String(part.value)]);
    } else {
      form.fields[part.fieldname] = String(part.value);
    }
  }
  return form;
}
