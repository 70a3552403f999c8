import type { CanonicalAnswer } from '../../core/canonical/canonical-answer.js';
import {
  encodeOutputItem,
  encodeToolCallArtefactItem,
  hasSealedToolCallArtefact,
  itemIdPrefixOf,
} from './encode-output-item.js';
import { responsesCallIdOf } from './responses-call-id.js';
import { encodeResponsesUsage } from './encode-responses-usage.js';
import type { ResponseEncodingContext } from './response-encoding-context.js';
import { toolMapOf } from './responses-tool-map.js';
import type { ResponsesOutputItem, ResponsesResponse } from './responses-wire-types.js';

/** How an answer ended, in Responses' terms. */
type ResponseOutcome = Pick<ResponsesResponse, 'status' | 'error' | 'incomplete_details'>;

/**
 * A vendor failure → `failed`; no finish at all (a cut stream) → `failed` too, never a fake success; a length or
 * content-filter stop → `incomplete` with its reason; otherwise `completed`.
 */
export function responseOutcomeOf(answer: CanonicalAnswer): ResponseOutcome {
  if (answer.failure) {
    const code = answer.failure.code === 'rate_limit_exceeded' ? 'rate_limit_exceeded' : 'server_error';
    return { status: 'failed', error: { code, message: answer.failure.message }, incomplete_details: null };
  }
  if (!answer.finish) {
    return {
      status: 'failed',
      error: { code: 'server_error', message: 'The upstream ended the answer without finishing it.' },
      incomplete_details: null,
    };
  }
  switch (answer.finish.reason) {
    case 'stop':
    case 'tool-calls':
      return { status: 'completed', error: null, incomplete_details: null };
    case 'length':
      return { status: 'incomplete', error: null, incomplete_details: { reason: 'max_output_tokens' } };
    case 'content-filter':
      return { status: 'incomplete', error: null, incomplete_details: { reason: 'content_filter' } };
    default: {
      const unreachable: never = answer.finish.reason;
      throw new Error(`Unhandled finish reason ${String(unreachable)}`);
    }
  }
}

/** A Response that has not produced anything yet (what `response.created` and `response.in_progress` carry). */
export function encodeInProgressResponse(context: ResponseEncodingContext): ResponsesResponse {
  return assemble(context, { status: 'in_progress', error: null, incomplete_details: null }, [], null, null);
}

/** The final Response for an answer whose output items are already encoded (the stream encoder's terminal event). */
export function encodeFinalResponse(
  answer: CanonicalAnswer,
  context: ResponseEncodingContext,
  output: ResponsesOutputItem[],
): ResponsesResponse {
  const outcome = responseOutcomeOf(answer);
  const completedAt = outcome.status === 'completed' ? context.nowSeconds() : null;
  return assemble(context, outcome, output, answer.usage ? encodeResponsesUsage(answer.usage) : null, completedAt);
}

/**
 * A non-streamed answer as a Response object, with gateway item ids in output order; a tool call with a vendor
 * artefact is preceded by the reasoning item that carries it sealed (when the client asked for encrypted content)
 * or carries it in its `call_id` (when not).
 */
export function encodeResponse(answer: CanonicalAnswer, context: ResponseEncodingContext): ResponsesResponse {
  const toolNames = toolMapOf(context);
  const output = answer.blocks.flatMap((block) => {
    const items: ResponsesOutputItem[] = [];
    if (hasSealedToolCallArtefact(block, context.sealReasoning) && context.sealReasoning)
      items.push(encodeToolCallArtefactItem(block, context.createItemId('rs'), context.sealReasoning));
    const itemId = context.createItemId(itemIdPrefixOf(block));
    const shownCallId = block.type === 'tool-call' ? responsesCallIdOf(block, context) : undefined;
    items.push(encodeOutputItem(block, itemId, context.sealReasoning, toolNames, shownCallId));
    return items;
  });
  return encodeFinalResponse(answer, context, output);
}

function assemble(
  context: ResponseEncodingContext,
  outcome: ResponseOutcome,
  output: ResponsesOutputItem[],
  usage: ResponsesResponse['usage'],
  completedAt: number | null,
): ResponsesResponse {
  return {
    id: context.responseId,
    object: 'response',
    created_at: context.createdAt,
    ...outcome,
    completed_at: completedAt,
    ...context.echo,
    output,
    usage,
    background: false,
    user: null,
  };
}
