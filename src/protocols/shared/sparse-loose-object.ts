import { z } from 'zod';

/** A problem between fields of a body, which no single field's schema can see. */
export interface CrossFieldIssue {
  /** the field named in the error, e.g. `['stream_options']` */
  path: string[];
  message: string;
}

/**
 * `z.looseObject(shape)` with checks between its fields, for request bodies with many optional fields of which a
 * request sends a few, and a fast path for the valid ones. zod's compiled object parser runs every field of its shape,
 * sent or not (37 for chat completions, 15–16 µs of a streamed request's time to first event at concurrency 1);
 * `parseValid` runs zod on the required fields and on each optional field only when it is sent. It gives up
 * (undefined) at the first problem, so that errors always come from `full`, zod's own parse of the whole shape.
 *
 * Only for shapes whose optional fields change nothing they accept (no transform, default or stripping object
 * inside): the fast path keeps the values as sent, where zod would return equal copies. The tests compare both.
 */
export function createSparseLooseObject<Shape extends z.ZodRawShape>(
  shape: Shape,
  crossFieldIssues: (body: z.output<z.ZodObject<Shape, z.core.$loose>>) => CrossFieldIssue[],
) {
  const full = z.looseObject(shape).superRefine((body, context) => {
    for (const issue of crossFieldIssues(body))
      context.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });
  const requiredFields: Record<string, z.core.$ZodType> = {};
  const optionalFields = new Map<string, z.core.$ZodType>();
  for (const [name, field] of Object.entries(shape)) {
    // Optional: absent is valid and stays absent. A field with a default is required here, so zod fills it in.
    const absent = z.safeParse(field, undefined);
    if (absent.success && absent.data === undefined) optionalFields.set(name, field);
    else requiredFields[name] = field;
  }
  const requiredOnly = z.looseObject(requiredFields);
  const fieldNames = Object.keys(shape);
  return {
    /** the whole schema: its output type, and every error */
    full,
    /** The body as `full` would return it when it is valid; undefined when it is not (ask `full` why). */
    parseValid(body: Record<string, unknown>): z.output<typeof full> | undefined {
      const required = requiredOnly.safeParse(body);
      if (!required.success) return undefined;
      const parsed = required.data;
      for (const name in parsed) {
        const field = optionalFields.get(name);
        if (field && !z.safeParse(field, parsed[name]).success) return undefined;
      }
      // zod's key order: the shape's fields, then the others as sent. Which field a refusal names follows it.
      const ordered: Record<string, unknown> = {};
      for (const name of fieldNames) if (Object.hasOwn(parsed, name)) ordered[name] = parsed[name];
      for (const name in parsed) if (!Object.hasOwn(shape, name)) ordered[name] = parsed[name];
      const output = ordered as z.output<typeof full>;
      return crossFieldIssues(output).length === 0 ? output : undefined;
    },
  };
}

/** A schema made by `createSparseLooseObject`. */
export type SparseLooseObject<Output> = {
  full: z.ZodType<Output>;
  parseValid(body: Record<string, unknown>): Output | undefined;
};
