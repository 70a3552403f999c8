// Hostile JSON bodies: broken syntax, cut-off bodies, random bytes, deep nesting, and a wrong value (type,
// range, overflow) or a missing value for every field the official API description defines for each endpoint.
import fc from 'fast-check';
import {
  encodeJsonWithLiterals,
  encodeRequest,
  jsonHeaders,
  rawLiteralMarker,
  type HostileCase,
  type HostileContext,
  type JsonRoute,
} from './hostile-case.js';

/** Bodies that are not JSON objects at all. */
const brokenBodies = [
  '',
  ' ',
  'null',
  'true',
  '0',
  '[]',
  '"text"',
  '{',
  '}',
  '{"model":',
  '{"model" "gpt-4o"}',
  "{'model': 'gpt-4o'}",
  '{"model":"gpt-4o",}',
  '{"a":1}{"b":2}',
  '\u0000\u0001\u0002',
  '\ufeff{"model":"gpt-4o"}',
  '{"model":"\\ud800"}',
  '{"model":"\\x41"}',
  '/* comment */ {}',
  'NaN',
  '{"model":NaN}',
  '{"model":Infinity}',
  '{"__proto__":{"admin":true}}',
  '{"constructor":{"prototype":{"polluted":true}}}',
  '[{"model":"gpt-4o"}]',
];

/** JSON literals no JS value serializes to: overflows, negative zero, huge integers and exponents. */
const rawLiterals = [
  '1e999',
  '-1e999',
  '-0',
  '1e-999',
  '123456789012345678901234567890',
  '0.1e1000',
  '9007199254740993',
  '-9007199254740993',
  '1.5',
  '2147483648',
  '-1',
];

/** A wrong value for any field: wrong types, edge numbers, odd strings, nested junk. */
const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    null,
    true,
    false,
    0,
    -1,
    1.5,
    2 ** 31,
    2 ** 53,
    -(2 ** 53),
    Number.MAX_VALUE,
    Number.MIN_VALUE,
    '',
    ' ',
    'auto',
    'default',
    'priority',
    'high',
    'none',
    [],
    {},
    [[]],
    [null],
    { type: 'unknown' },
  ),
  fc.integer({ min: 0, max: rawLiterals.length - 1 }).map((index) => `${rawLiteralMarker}${index}`),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 1_000, max: 200_000 }).map((length) => 'x'.repeat(length)),
);

/** Sets (or deletes, for `undefined`) a dotted path in a copy of `body`, creating containers on the way. */
function withField(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = structuredClone(body);
  const keys = path.split('.');
  let container: Record<string, unknown> = copy;
  for (const key of keys.slice(0, -1)) {
    const next = container[key];
    if (typeof next !== 'object' || next === null) container[key] = {};
    container = container[key] as Record<string, unknown>;
  }
  const last = keys[keys.length - 1] ?? '';
  if (value === undefined) delete container[last];
  else container[last] = value;
  return copy;
}

function jsonCase(
  route: JsonRoute,
  context: HostileContext,
  options: {
    name: string;
    body: string | Buffer;
    expectation: HostileCase['expectations'][number];
    contentType?: string;
  },
): HostileCase {
  const headers = {
    ...jsonHeaders(route, context),
    ...(options.contentType ? { 'content-type': options.contentType } : {}),
  };
  return {
    name: `${options.name} ${route.path}`,
    writes: [encodeRequest({ method: 'POST', path: route.path, headers, body: options.body })],
    expectations: [options.expectation],
    framingComplete: true,
  };
}

/** Bodies that are not valid JSON, or not an object: always a 4xx. */
export function malformedJsonCase(routes: JsonRoute[], context: HostileContext): fc.Arbitrary<HostileCase> {
  const route = fc.constantFrom(...routes);
  const contentType = fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'Application/JSON',
    'application/json;charset=UTF-8',
  );
  return fc.oneof(
    fc.tuple(route, fc.constantFrom(...brokenBodies), contentType).map(([jsonRoute, body, type]) =>
      jsonCase(jsonRoute, context, {
        name: `broken json ${JSON.stringify(body.slice(0, 30))}`,
        body,
        expectation: 'client-error',
        contentType: type,
      }),
    ),
    fc.tuple(route, fc.double({ min: 0, max: 0.999, noNaN: true })).map(([jsonRoute, fraction]) => {
      const text = JSON.stringify(jsonRoute.validBody);
      const cut = Math.floor(fraction * text.length);
      // Any strict prefix of an object's text leaves the object open: never valid JSON.
      return jsonCase(jsonRoute, context, {
        name: `json cut at ${cut}`,
        body: text.slice(0, cut),
        expectation: 'client-error',
      });
    }),
    fc.tuple(route, fc.uint8Array({ minLength: 1, maxLength: 600 })).map(([jsonRoute, bytes]) =>
      jsonCase(jsonRoute, context, {
        name: `random bytes (${bytes.length})`,
        body: Buffer.from(bytes),
        expectation: bytes[0] === 0x7b ? 'no-server-error' : 'client-error',
      }),
    ),
    fc.tuple(route, fc.integer({ min: 50, max: 30_000 }), fc.boolean()).map(([jsonRoute, depth, arrays]) => {
      const nested = arrays
        ? `${'['.repeat(depth)}${']'.repeat(depth)}`
        : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
      const key =
        jsonRoute.authentication === 'none'
          ? 'email'
          : jsonRoute.path === '/v1/chat/completions'
            ? 'messages'
            : 'model';
      return jsonCase(jsonRoute, context, {
        name: `nesting ${depth} in ${key}`,
        body: `{"${key}":${nested}}`,
        expectation: 'client-error',
      });
    }),
    fc
      .tuple(
        route,
        fc.integer({ min: 1_000, max: 100_000 }),
        fc.boolean(),
        fc.constantFrom('metadata', 'user', 'x_unknown', 'stop', 'input'),
      )
      .map(([jsonRoute, depth, arrays, field]) => {
        // Deep nesting inside a field the gateway may pass through unchanged: it must still not take the process down.
        const nested = arrays
          ? `${'['.repeat(depth)}${']'.repeat(depth)}`
          : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
        const text = JSON.stringify(jsonRoute.validBody);
        return jsonCase(jsonRoute, context, {
          name: `nesting ${depth} in pass-through ${field}`,
          body: `${text.slice(0, -1)},"${field}":${nested}}`,
          expectation: 'no-server-error',
        });
      }),
    fc
      .tuple(route, fc.nat(), fc.constantFrom('{', '}', '[', ']', '"', ',', ':', '\\', '\u0000', '\u00ff', 'x'))
      .map(([jsonRoute, position, inserted]) => {
        const text = JSON.stringify(jsonRoute.validBody);
        const at = position % text.length;
        // A mutation may leave valid JSON (a quote inside a string value…), which the gateway may accept.
        return jsonCase(jsonRoute, context, {
          name: `json with ${JSON.stringify(inserted)} at ${at}`,
          body: text.slice(0, at) + inserted + text.slice(at),
          expectation: 'no-server-error',
        });
      }),
  );
}

/** A valid body with one known field set to a wrong value, removed, or joined by an odd extra field. */
export function wrongFieldCase(routes: JsonRoute[], context: HostileContext): fc.Arbitrary<HostileCase> {
  const withWrongValue = fc
    .constantFrom(...routes)
    .chain((route) => fc.tuple(fc.constant(route), fc.constantFrom(...route.fields), wrongValue))
    .map(([route, field, value]) => {
      const body = encodeJsonWithLiterals(withField(route.validBody, field, value), rawLiterals);
      return jsonCase(route, context, {
        name: `field ${field}=${body.length > 120 ? `${typeof value} (${body.length} bytes)` : JSON.stringify(value)}`,
        body,
        expectation: 'no-server-error',
      });
    });
  const withoutField = fc
    .constantFrom(...routes)
    .chain((route) => fc.tuple(fc.constant(route), fc.constantFrom(...route.fields)))
    .map(([route, field]) =>
      jsonCase(route, context, {
        name: `without ${field}`,
        body: JSON.stringify(withField(route.validBody, field, undefined)),
        expectation: 'no-server-error',
      }),
    );
  const withOddField = fc
    .tuple(
      fc.constantFrom(...routes),
      fc.constantFrom(
        '__proto__',
        'constructor',
        'prototype',
        '',
        ' ',
        'model ',
        'MODEL',
        'x'.repeat(5000),
        '\u0000',
        'hasOwnProperty',
      ),
      wrongValue,
    )
    .map(([route, name, value]) => {
      const text = JSON.stringify(route.validBody);
      const body = `${text.slice(0, -1)},${JSON.stringify(name)}:${encodeJsonWithLiterals(value, rawLiterals)}}`;
      return jsonCase(route, context, {
        name: `extra field ${JSON.stringify(name.slice(0, 20))}`,
        body,
        expectation: 'no-server-error',
      });
    });
  return fc.oneof(
    { arbitrary: withWrongValue, weight: 6 },
    { arbitrary: withoutField, weight: 1 },
    { arbitrary: withOddField, weight: 1 },
  );
}
