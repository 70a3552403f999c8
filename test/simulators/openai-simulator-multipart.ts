// Reads a whole multipart/form-data request into fields and in-memory files.
import type { FastifyRequest } from 'fastify';
import type { UploadedFile } from './openai-simulator-endpoint.js';
import { invalidRequest } from './openai-simulator-errors.js';
import type { RequestBody } from './openai-simulator-validation.js';

/** A parsed multipart form. */
export interface MultipartForm {
  /** fields by name; files appear as {filename, contentType, size}; a repeated name gives an array */
  body: RequestBody;
  /** the uploaded files by field name */
  files: Map<string, UploadedFile[]>;
}

/** Consumes the request's parts; rejects non-multipart requests with OpenAI's 400. */
export async function readMultipartForm(request: FastifyRequest): Promise<MultipartForm> {
  if (!request.isMultipart()) {
    throw invalidRequest("Invalid Content-Type header (expected 'multipart/form-data').", null);
  }
  const body: RequestBody = {};
  const files = new Map<string, UploadedFile[]>();
  for await (const part of request.parts()) {
    if (part.type === 'field') {
      addValue(body, part.fieldname, part.value);
      continue;
    }
    const file: UploadedFile = {
      fieldName: part.fieldname,
      filename: part.filename,
      contentType: part.mimetype,
      content: await part.toBuffer(),
    };
    files.set(part.fieldname, [...(files.get(part.fieldname) ?? []), file]);
    addValue(body, part.fieldname, {
      filename: file.filename,
      contentType: file.contentType,
      size: file.content.length,
    });
  }
  return { body, files };
}

/** The files sent under `name` or `name[]` (clients use both spellings for repeated file fields). */
export function filesNamed(files: Map<string, UploadedFile[]>, name: string): UploadedFile[] {
  return [...(files.get(name) ?? []), ...(files.get(`${name}[]`) ?? [])];
}

/** A multipart field as a string, or undefined when absent. */
export function textField(body: RequestBody, name: string): string | undefined {
  const value = body[name];
  return typeof value === 'string' ? value : undefined;
}

/** A multipart field as a number, or undefined when absent or not numeric. */
export function numberField(body: RequestBody, name: string): number | undefined {
  const text = textField(body, name);
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
}

function addValue(body: RequestBody, name: string, value: unknown): void {
  const existing = body[name];
  if (existing === undefined) body[name] = value;
  else body[name] = Array.isArray(existing) ? [...existing, value] : [existing, value];
}
