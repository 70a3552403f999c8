import { FormData } from 'undici';
import type { MultipartForm } from './read-multipart-form.js';

/** Rebuilds the client's form for the upstream, with the model name that channel expects. */
export function encodeUpstreamForm(form: MultipartForm, upstreamModelId: string): FormData {
  const formData = new FormData();
  for (const [name, value] of Object.entries(form.fields))
    formData.append(name, name === 'model' ? upstreamModelId : value);
  if (!('model' in form.fields)) formData.append('model', upstreamModelId);
  for (const [name, value] of form.repeatedFields) formData.append(name, value);
  for (const file of form.files)
    formData.append(file.fieldName, new Blob([file.data], { type: file.contentType }), file.filename);
  return formData;
}
