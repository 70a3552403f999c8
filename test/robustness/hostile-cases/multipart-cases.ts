// Hostile multipart uploads to /v1/audio/transcriptions and /v1/images/edits: no or a wrong boundary, cut-off
// bodies, missing files, too many parts or files, oversized fields and files, malformed part headers, wrong
// field values, and bodies of the wrong kind.
import fc from 'fast-check';
import { createWav } from '../../helpers/create-wav.js';
import { encodeRequest, type HostileCase, type HostileContext, type ResponseExpectation } from './hostile-case.js';

/** A valid 1x1 RGBA PNG. */
const tinyPng = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** One part of a form: a text field, or a file when `filename` is given. */
interface FormPart {
  name: string;
  value: string | Buffer;
  filename?: string;
  contentType?: string;
}

/** A multipart route and a form it accepts. */
interface UploadRoute {
  path: string;
  fileField: string;
  validParts: FormPart[];
  /** text fields a generator may give a wrong value */
  fields: string[];
}

const uploadRoutes: UploadRoute[] = [
  {
    path: '/v1/audio/transcriptions',
    fileField: 'file',
    validParts: [
      { name: 'model', value: 'whisper-1' },
      { name: 'file', value: createWav(0.2), filename: 'speech.wav', contentType: 'audio/wav' },
    ],
    fields: [
      'model',
      'language',
      'prompt',
      'response_format',
      'temperature',
      'timestamp_granularities[]',
      'chunking_strategy',
      'include[]',
      'stream',
    ],
  },
  {
    path: '/v1/images/edits',
    fileField: 'image',
    validParts: [
      { name: 'model', value: 'dall-e-2' },
      { name: 'prompt', value: 'a hat' },
      { name: 'image', value: tinyPng, filename: 'cat.png', contentType: 'image/png' },
    ],
    fields: [
      'model',
      'prompt',
      'n',
      'size',
      'response_format',
      'user',
      'quality',
      'background',
      'input_fidelity',
      'output_format',
      'stream',
    ],
  },
];

const boundary = 'hostile-boundary-7d2f';

/** A multipart body with CRLF line ends (or `lineEnd` to break them). */
function encodeForm(
  parts: FormPart[],
  options: { boundary?: string; lineEnd?: string; closing?: boolean } = {},
): Buffer {
  const mark = options.boundary ?? boundary;
  const lineEnd = options.lineEnd ?? '\r\n';
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition = `Content-Disposition: form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.contentType === undefined ? '' : `Content-Type: ${part.contentType}${lineEnd}`;
    chunks.push(
      Buffer.from(`--${mark}${lineEnd}${disposition}${lineEnd}${type}${lineEnd}`, 'latin1'),
      Buffer.from(part.value),
      Buffer.from(lineEnd),
    );
  }
  if (options.closing !== false) chunks.push(Buffer.from(`--${mark}--${lineEnd}`));
  return Buffer.concat(chunks);
}

function uploadCase(
  route: UploadRoute,
  context: HostileContext,
  options: { name: string; body: Buffer; contentType?: string; expectation: ResponseExpectation },
): HostileCase {
  return {
    name: `${options.name} ${route.path}`,
    writes: [
      encodeRequest({
        method: 'POST',
        path: route.path,
        headers: {
          authorization: `Bearer ${context.apiKey}`,
          'content-type': options.contentType ?? `multipart/form-data; boundary=${boundary}`,
        },
        body: options.body,
      }),
    ],
    expectations: [options.expectation],
    framingComplete: true,
  };
}

/** Forms that cannot be read or lack what the endpoint needs: always a 4xx. */
export function brokenMultipartCase(
  context: HostileContext,
  limits: { uploadLimitBytes: number },
): fc.Arbitrary<HostileCase> {
  const route = fc.constantFrom(...uploadRoutes);
  const fieldsOnly = (uploadRoute: UploadRoute): FormPart[] =>
    uploadRoute.validParts.filter((part) => part.filename === undefined);
  return fc.oneof(
    route.map((uploadRoute) =>
      uploadCase(uploadRoute, context, {
        name: 'no boundary',
        body: encodeForm(uploadRoute.validParts),
        contentType: 'multipart/form-data',
        expectation: 'client-error',
      }),
    ),
    fc
      .tuple(route, fc.constantFrom('other', '', '"', 'x'.repeat(200), boundary.slice(1)))
      .map(([uploadRoute, declared]) =>
        uploadCase(uploadRoute, context, {
          name: `boundary ${JSON.stringify(declared.slice(0, 12))}`,
          body: encodeForm(uploadRoute.validParts),
          contentType: `multipart/form-data; boundary=${declared}`,
          expectation: 'client-error',
        }),
      ),
    fc.tuple(route, fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true })).map(([uploadRoute, fraction]) => {
      const body = encodeForm(uploadRoute.validParts);
      // Cut before the closing boundary: the form ends in the middle of a part.
      const cut = Math.floor(fraction * (body.length - boundary.length - 8));
      return uploadCase(uploadRoute, context, {
        name: `form cut at ${cut}`,
        body: body.subarray(0, cut),
        expectation: 'client-error',
      });
    }),
    route.map((uploadRoute) =>
      uploadCase(uploadRoute, context, {
        name: 'no file',
        body: encodeForm(fieldsOnly(uploadRoute)),
        expectation: 'client-error',
      }),
    ),
    route.map((uploadRoute) =>
      uploadCase(uploadRoute, context, {
        name: 'file part without filename',
        body: encodeForm(uploadRoute.validParts.map((part) => ({ name: part.name, value: part.value }))),
        expectation: 'client-error',
      }),
    ),
    fc.tuple(route, fc.integer({ min: 65, max: 300 })).map(([uploadRoute, count]) => {
      const extra = Array.from({ length: count }, (_, index) => ({ name: `field${index}`, value: 'x' }));
      return uploadCase(uploadRoute, context, {
        name: `${count} extra fields`,
        body: encodeForm([...uploadRoute.validParts, ...extra]),
        expectation: 'client-error',
      });
    }),
    fc.tuple(route, fc.integer({ min: 9, max: 30 })).map(([uploadRoute, count]) => {
      const file = uploadRoute.validParts.find((part) => part.filename !== undefined) as FormPart;
      const files = Array.from({ length: count }, () => file);
      return uploadCase(uploadRoute, context, {
        name: `${count} files`,
        body: encodeForm([...fieldsOnly(uploadRoute), ...files]),
        expectation: 'client-error',
      });
    }),
    fc.tuple(route, fc.integer({ min: 1024 * 1024 + 1, max: 1024 * 1024 + 4096 })).map(([uploadRoute, length]) =>
      uploadCase(uploadRoute, context, {
        name: `field of ${length} bytes`,
        body: encodeForm([{ name: 'prompt', value: 'p'.repeat(length) }, ...uploadRoute.validParts]),
        expectation: 'client-error',
      }),
    ),
    fc.tuple(route, fc.integer({ min: 1, max: 4096 })).map(([uploadRoute, extra]) => {
      const bigFile = {
        name: uploadRoute.fileField,
        value: Buffer.alloc(limits.uploadLimitBytes + extra, 1),
        filename: 'big.bin',
        contentType: 'application/octet-stream',
      };
      return uploadCase(uploadRoute, context, {
        name: `file over the limit by ${extra}`,
        body: encodeForm([...fieldsOnly(uploadRoute), bigFile]),
        expectation: 'client-error',
      });
    }),
    fc
      .tuple(
        route,
        fc.constantFrom(
          'nonsense',
          'Content-Disposition: form-data',
          'Content-Disposition: attachment; name="model"',
          'Content-Disposition: form-data; name=',
          ': ;',
        ),
      )
      .map(([uploadRoute, header]) => {
        const body = Buffer.concat([
          Buffer.from(`--${boundary}\r\n${header}\r\n\r\nvalue\r\n`),
          encodeForm(fieldsOnly(uploadRoute)),
        ]);
        return uploadCase(uploadRoute, context, {
          name: `part header ${JSON.stringify(header)}`,
          body,
          expectation: 'client-error',
        });
      }),
    route.map((uploadRoute) =>
      uploadCase(uploadRoute, context, {
        name: 'bare LF line ends',
        body: encodeForm(uploadRoute.validParts, { lineEnd: '\n' }),
        expectation: 'client-error',
      }),
    ),
    fc.tuple(route, fc.uint8Array({ minLength: 0, maxLength: 800 })).map(([uploadRoute, bytes]) =>
      uploadCase(uploadRoute, context, {
        name: `random bytes (${bytes.length})`,
        body: Buffer.from(bytes),
        expectation: 'client-error',
      }),
    ),
    fc
      .tuple(
        route,
        fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'application/octet-stream',
          'multipart/mixed; boundary=x',
          'multipart/form-data;',
          'multipart/form-data; boundary',
        ),
      )
      .map(([uploadRoute, contentType]) =>
        uploadCase(uploadRoute, context, {
          name: `content-type ${contentType}`,
          body: encodeForm(uploadRoute.validParts),
          contentType,
          expectation: 'client-error',
        }),
      ),
  );
}

/** A readable form with one text field set to a wrong value: the gateway or the vendor may accept it. */
export function wrongFormFieldCase(context: HostileContext): fc.Arbitrary<HostileCase> {
  const value = fc.oneof(
    fc.constantFrom(
      '',
      ' ',
      '-1',
      '0',
      '1e999',
      'NaN',
      'lots',
      '99999999999999999999',
      '1.5',
      'true',
      '[]',
      '{}',
      'null',
      'json',
      'xml',
      '4096x4096',
      'auto',
      'hd',
    ),
    fc.string({ maxLength: 30 }),
    fc.string({ unit: 'binary', maxLength: 20 }),
  );
  return fc
    .constantFrom(...uploadRoutes)
    .chain((route) => fc.tuple(fc.constant(route), fc.constantFrom(...route.fields), value))
    .map(([route, field, fieldValue]) => {
      const parts = [...route.validParts.filter((part) => part.name !== field), { name: field, value: fieldValue }];
      return uploadCase(route, context, {
        name: `form field ${field}=${JSON.stringify(fieldValue)}`,
        body: encodeForm(parts),
        expectation: 'no-server-error',
      });
    });
}

/** A multipart body sent to a JSON endpoint: 415. */
export function multipartToJsonEndpointCase(context: HostileContext): fc.Arbitrary<HostileCase> {
  return fc
    .constantFrom('/v1/chat/completions', '/v1/completions', '/v1/embeddings', '/v1/images/generations')
    .map((path) => ({
      name: `multipart body to ${path}`,
      writes: [
        encodeRequest({
          method: 'POST',
          path,
          headers: {
            authorization: `Bearer ${context.apiKey}`,
            'content-type': `multipart/form-data; boundary=${boundary}`,
          },
          body: encodeForm([{ name: 'model', value: 'gpt-4o' }]),
        }),
      ],
      expectations: ['client-error'],
      framingComplete: true,
    }));
}
