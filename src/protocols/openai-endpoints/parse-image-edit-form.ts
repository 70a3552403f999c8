import { GatewayError } from '../../core/gateway-error.js';
import type { MultipartForm } from '../../core/multipart-form.js';
import {
  imageEditFieldRules,
  imageEditFieldsSchema,
  imageEditFileFields,
  maxImageEditImages,
  type ImageEditFields,
} from './image-request-schemas.js';
import { parseRequestBody } from '../shared/parse-request-body.js';
import { unrecognizedArgumentError } from '../shared/unrecognized-argument-error.js';

/**
 * Validates a `POST /v1/images/edits` form against the official API description: unknown text or file fields are
 * refused (`Unrecognized request argument supplied`), text fields are checked for type and range, and there must be
 * 1 to 16 images (`image` or `image[]`) and at most one `mask`.
 */
export function parseImageEditForm(form: MultipartForm): ImageEditFields {
  for (const field of Object.keys(form.fields)) {
    if (!imageEditFieldRules.officialFields.has(field)) throw unrecognizedArgumentError(field);
  }
  const firstRepeated = form.repeatedFields[0];
  if (firstRepeated) throw unrecognizedArgumentError(firstRepeated[0]);
  let images = 0;
  let masks = 0;
  for (const file of form.files) {
    if (!imageEditFileFields.has(file.fieldName)) throw unrecognizedArgumentError(file.fieldName);
    if (file.fieldName === 'mask') masks++;
    else images++;
  }
  const fields = parseRequestBody(imageEditFieldsSchema, form.fields);
  if (images === 0)
    throw new GatewayError('invalid_request_error', "Missing required parameter: 'image'.", { param: 'image' });
  if (images > maxImageEditImages) {
    throw new GatewayError(
      'invalid_request_error',
      `Invalid value for 'image': at most ${maxImageEditImages} images per edit.`,
      { param: 'image' },
    );
  }
  if (masks > 1)
    throw new GatewayError('invalid_request_error', "Invalid value for 'mask': send at most one mask.", {
      param: 'mask',
    });
  return fields;
}
