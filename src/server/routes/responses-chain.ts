import type { CanonicalMessage } from '../../core/canonical/canonical-request.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { ResponsesPassThroughChain } from '../../protocols/openai-responses/responses-pass-through.js';
import type { UnsealReasoning } from '../../protocols/openai-responses/map-responses-input.js';
import { parseResponsesRequest } from '../../protocols/openai-responses/parse-responses-request.js';
import type { ResponsesStore, StoredResponseRecord } from '../../storage/responses-store.js';

/** The conversation a `previous_response_id` continues, for both ways of serving it. */
export interface LoadedResponsesChain {
  /** for pass-through channels: the vendor id on the channel that stored it, or the replayed items */
  passThrough: ResponsesPassThroughChain;
  /** for every other channel: the conversation so far as canonical messages (instructions are not carried over) */
  messages: CanonicalMessage[];
}

/** How far back a chain is followed; a longer one is refused rather than walked forever. */
const maximumChainLength = 1000;

/** Item types the canonical model can replay; hosted-tool items of a passed-through answer are left out of it. */
const replayableItemTypes = new Set([
  'message',
  'function_call',
  'function_call_output',
  'custom_tool_call',
  'custom_tool_call_output',
  'reasoning',
]);

/**
 * Loads the chain ending at `previousResponseId` (the user's own responses only: another user's id is not found),
 * oldest first: every ancestor's stored input items, then its output items.
 */
export async function loadResponsesChain(
  store: ResponsesStore,
  previousResponseId: string,
  userId: string,
  unsealReasoning: UnsealReasoning,
): Promise<LoadedResponsesChain> {
  const ancestors: StoredResponseRecord[] = [];
  let nextId: string | null = previousResponseId;
  const seen = new Set<string>();
  while (nextId !== null) {
    if (seen.has(nextId) || ancestors.length >= maximumChainLength) {
      throw new GatewayError(
        'invalid_request_error',
        `The conversation before '${previousResponseId}' is too long to continue.`,
        { param: 'previous_response_id' },
      );
    }
    seen.add(nextId);
    const record = await store.find(nextId, userId);
    if (!record) {
      throw new GatewayError('not_found', `Previous response with id '${previousResponseId}' not found.`, {
        param: 'previous_response_id',
      });
    }
    ancestors.push(record);
    nextId = record.previousResponseId;
  }
  ancestors.reverse();
  const items = ancestors.flatMap((record) => [...record.inputItems, ...outputItemsOf(record)]);
  const newest = ancestors.at(-1);
  const vendorContinuation =
    newest?.channelId && newest.vendorResponseId
      ? { channelId: newest.channelId, vendorResponseId: newest.vendorResponseId }
      : null;
  const replayable = items.filter((item) => typeof item.type === 'string' && replayableItemTypes.has(item.type));
  const messages =
    replayable.length === 0
      ? []
      : parseResponsesRequest({ model: 'chain', input: replayable }, { unsealReasoning }).request.messages;
  return { passThrough: { previousResponseId, vendorContinuation, items }, messages };
}

function outputItemsOf(record: StoredResponseRecord): Array<Record<string, unknown>> {
  const output = record.response.output;
  return Array.isArray(output) ? (output as Array<Record<string, unknown>>) : [];
}
