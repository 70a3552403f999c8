import { z } from 'zod';
import type { CanonicalStreamPart } from '../core/canonical/canonical-stream-part.js';

/** What a vendor's answer says of itself, for the GenAI span attributes `gen_ai.response.*`. */
export interface ResponseFacts {
  /** the vendor's response id (`chatcmpl-…`, `msg_…`, `resp_…`), when it sent one */
  id: string | undefined;
  /** the model the vendor says answered, when it said */
  model: string | undefined;
  /** why each choice ended, the vendor's own values (`stop`, `end_turn`, `MAX_TOKENS`, …), in the order seen */
  finishReasons: string[];
}

/** A string where one is expected; anything else counts as absent. */
const lenientString = z.string().optional().catch(undefined);

/**
 * The identity and ending fields of every JSON answer shape the gateway relays, each read leniently: OpenAI chat and
 * completions (`choices[].finish_reason`), Anthropic Messages (`stop_reason`), OpenAI Responses (`status`,
 * `incomplete_details.reason`); nested under `message` (Anthropic's message_start), `response` (Responses events) or
 * `delta` (Anthropic's message_delta).
 */
const answerFactsSchema = z.object({
  id: lenientString,
  model: lenientString,
  stop_reason: lenientString,
  status: lenientString,
  incomplete_details: z.object({ reason: lenientString }).optional().catch(undefined),
  choices: z
    .array(z.object({ finish_reason: lenientString }).catch({ finish_reason: undefined }))
    .optional()
    .catch(undefined),
});

const wrappedFactsSchema = answerFactsSchema.extend({
  message: answerFactsSchema.optional().catch(undefined),
  response: answerFactsSchema.optional().catch(undefined),
  delta: answerFactsSchema.optional().catch(undefined),
});

type AnswerFactsFields = z.infer<typeof answerFactsSchema>;

/** Events of the pass-through streams that carry identity or ending fields; others are not parsed. */
const factEventNames = new Set([
  'message_start',
  'message_delta',
  'response.created',
  'response.completed',
  'response.incomplete',
  'response.failed',
]);

/** Statuses of a Responses answer that say nothing of how it ended. */
const unfinishedStatuses = new Set(['in_progress', 'queued']);

/**
 * Collects `gen_ai.response.id`, `.model` and `.finish_reasons` from an answer while it is relayed. Made only for an
 * attempt whose span is recording, so an untraced request never parses an answer for them; every read is lenient and
 * never throws (a shape it does not know leaves the facts unknown).
 */
export class ResponseFactsCollector {
  private id: string | undefined;
  private model: string | undefined;
  private readonly finishReasons: string[] = [];
  private endedWithStatus = false;

  /** A whole JSON answer (a non-streamed reply). */
  readJson(text: string): void {
    this.readFields(parseJson(text));
  }

  /**
   * One SSE event of a relayed stream (`eventName` its `event:` line, if any). OpenAI chat chunks are parsed only for
   * the first one (id and model) and those that carry a finish reason; named events only when they carry facts.
   */
  readEvent(eventName: string | undefined, data: string): void {
    if (eventName !== undefined && eventName !== 'message') {
      if (factEventNames.has(eventName)) this.readFields(parseJson(data));
      return;
    }
    if (this.id === undefined || data.includes('"finish_reason":"')) this.readFields(parseJson(data));
  }

  /** One decoded part of a translated answer (what the vendor's adapter already read). */
  readPart(part: CanonicalStreamPart): void {
    if (part.type === 'response-start') {
      this.id ??= part.vendorResponseId;
      this.model ??= part.vendorModel;
    } else if (part.type === 'finish') {
      this.finishReasons.push(part.finish.rawReason ?? part.finish.reason);
    }
  }

  /** What was collected; undefined when nothing was. */
  facts(): ResponseFacts | undefined {
    if (this.id === undefined && this.model === undefined && this.finishReasons.length === 0) return undefined;
    return { id: this.id, model: this.model, finishReasons: [...this.finishReasons] };
  }

  private readFields(value: unknown): void {
    const checked = wrappedFactsSchema.safeParse(value);
    if (!checked.success) return;
    const { message, response, delta } = checked.data;
    for (const fields of [checked.data, message, response, delta]) if (fields) this.take(fields);
  }

  private take(fields: AnswerFactsFields): void {
    this.id ??= fields.id;
    this.model ??= fields.model;
    if (fields.stop_reason !== undefined) this.finishReasons.push(fields.stop_reason);
    for (const choice of fields.choices ?? [])
      if (choice.finish_reason !== undefined) this.finishReasons.push(choice.finish_reason);
    // Only a Responses object has a status; it ends once (its last event, or the whole answer): why it stopped, or how.
    const status = fields.status;
    if (status !== undefined && !unfinishedStatuses.has(status) && !this.endedWithStatus) {
      this.endedWithStatus = true;
      this.finishReasons.push(fields.incomplete_details?.reason ?? status);
    }
  }
}

/** The JSON value of a text, or undefined when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
