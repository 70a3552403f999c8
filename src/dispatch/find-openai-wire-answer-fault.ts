import { z } from 'zod';

/** Bodies up to this size are parsed and checked whole; larger ones (big embeddings batches) get the light check only. */
const fullCheckLimitChars = 1024 * 1024;

/** The counts a vendor's `usage` may carry: each, when present, a number (or null, as some vendors send). */
const usageSchema = z.object({
  prompt_tokens: z.number().nullish(),
  completion_tokens: z.number().nullish(),
  total_tokens: z.number().nullish(),
  input_tokens: z.number().nullish(),
  output_tokens: z.number().nullish(),
});

/** The array every answer of an endpoint carries, by its path below the channel's base URL. */
function expectedArrayKeyOf(upstreamPath: string): string | undefined {
  if (upstreamPath === '/chat/completions' || upstreamPath === '/completions') return 'choices';
  if (upstreamPath === '/embeddings' || upstreamPath.startsWith('/images/')) return 'data';
  return undefined;
}

const answerSchemas = new Map<string, z.ZodType>();

function answerSchemaOf(arrayKey: string): z.ZodType {
  let schema = answerSchemas.get(arrayKey);
  if (!schema) {
    schema = z.object({ [arrayKey]: z.array(z.unknown()), usage: usageSchema.nullish() });
    answerSchemas.set(arrayKey, schema);
  }
  return schema;
}

/**
 * Why a 2xx OpenAI-wire answer cannot be relayed as the endpoint's answer, or undefined when it can: an HTML page,
 * a body that is not one JSON object (cut off, `[]`), one without the endpoint's array (`choices` for chat and
 * completions, `data` for embeddings and images) or with a `usage` that is not an object of numbers. Bodies up to
 * 1 MiB are parsed and checked with a schema; larger ones are checked by their first and last characters, the
 * array's key and the `usage` value's first character, so a huge embeddings answer is not parsed twice.
 */
export function findOpenAiWireAnswerFault(
  upstreamPath: string,
  contentType: string,
  bodyText: string,
): string | undefined {
  if (/^\s*text\/html/i.test(contentType)) return 'html';
  const arrayKey = expectedArrayKeyOf(upstreamPath);
  if (!arrayKey) return undefined;
  const first = firstNonSpace(bodyText);
  if (first !== '{') return first === '<' ? 'html' : 'not-an-object';
  if (lastNonSpace(bodyText) !== '}') return 'cut-off';
  if (bodyText.length <= fullCheckLimitChars) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(bodyText);
    } catch {
      return 'cut-off';
    }
    const checked = answerSchemaOf(arrayKey).safeParse(parsed);
    if (checked.success) return undefined;
    return checked.error.issues.some((issue) => issue.path[0] === 'usage') ? 'bad-usage' : `no-${arrayKey}`;
  }
  if (!new RegExp(`"${arrayKey}"\\s*:\\s*\\[`).test(bodyText)) return `no-${arrayKey}`;
  return lightUsageFault(bodyText);
}

/**
 * The same check for an answer streamed through (too large to hold, see stream-through-json-answer.ts), on its first
 * window: not a page, one JSON object, and the endpoint's array begun in it.
 */
export function findOpenAiWireAnswerHeadFault(
  upstreamPath: string,
  contentType: string,
  headText: string,
): string | undefined {
  if (/^\s*text\/html/i.test(contentType)) return 'html';
  const first = firstNonSpace(headText);
  if (first !== '{') return first === '<' ? 'html' : 'not-an-object';
  const arrayKey = expectedArrayKeyOf(upstreamPath);
  if (arrayKey && !new RegExp(`"${arrayKey}"\\s*:\\s*\\[`).test(headText)) return `no-${arrayKey}`;
  return undefined;
}

/** The same check on the last window of an answer streamed through: it ends its object, and its usage is an object. */
export function findOpenAiWireAnswerTailFault(tailText: string): string | undefined {
  if (lastNonSpace(tailText) !== '}') return 'cut-off';
  return lightUsageFault(tailText);
}

/** The last `"usage"` key's value must open an object or be null. */
function lightUsageFault(bodyText: string): string | undefined {
  const keyIndex = bodyText.lastIndexOf('"usage"');
  if (keyIndex === -1) return undefined;
  const afterKey = bodyText.slice(keyIndex + '"usage"'.length, keyIndex + '"usage"'.length + 64);
  const value = /^\s*:\s*(\S)/.exec(afterKey)?.[1];
  // `"usage"` followed by no colon is a string somewhere in the answer, not the key.
  if (value === undefined) return undefined;
  return value === '{' || value === 'n' ? undefined : 'bad-usage';
}

function firstNonSpace(text: string): string | undefined {
  for (let index = 0; index < text.length; index++) {
    const character = text[index];
    if (character !== ' ' && character !== '\n' && character !== '\r' && character !== '\t') return character;
  }
  return undefined;
}

function lastNonSpace(text: string): string | undefined {
  for (let index = text.length - 1; index >= 0; index--) {
    const character = text[index];
    if (character !== ' ' && character !== '\n' && character !== '\r' && character !== '\t') return character;
  }
  return undefined;
}
