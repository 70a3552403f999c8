import { describe, expect, it } from 'vitest';
import { closeJsonSchemaObjects } from './close-json-schema-objects.js';

describe('closeJsonSchemaObjects', () => {
  it('closes every object that does not say, nested in properties, items, anyOf and $defs, without changing the input', () => {
    const schema = {
      type: 'object',
      properties: {
        person: { type: 'object', properties: { name: { type: 'string' } } },
        tags: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' } } } },
        either: { anyOf: [{ type: 'object', properties: {} }, { type: 'null' }] },
        ref: { $ref: '#/$defs/thing' },
      },
      $defs: { thing: { type: ['object', 'null'], properties: { id: { type: 'integer' } } } },
    };
    const before = JSON.stringify(schema);
    expect(closeJsonSchemaObjects(schema)).toEqual({
      type: 'object',
      additionalProperties: false,
      properties: {
        person: { type: 'object', properties: { name: { type: 'string' } }, additionalProperties: false },
        tags: {
          type: 'array',
          items: { type: 'object', properties: { label: { type: 'string' } }, additionalProperties: false },
        },
        either: { anyOf: [{ type: 'object', properties: {}, additionalProperties: false }, { type: 'null' }] },
        ref: { $ref: '#/$defs/thing' },
      },
      $defs: {
        thing: { type: ['object', 'null'], properties: { id: { type: 'integer' } }, additionalProperties: false },
      },
    });
    expect(JSON.stringify(schema)).toBe(before);
  });

  it('keeps an additionalProperties the schema states (true, false or a schema)', () => {
    const open = { type: 'object', additionalProperties: true };
    const map = { type: 'object', additionalProperties: { type: 'string' } };
    expect(closeJsonSchemaObjects(open)).toEqual(open);
    expect(closeJsonSchemaObjects(map)).toEqual(map);
  });
});
