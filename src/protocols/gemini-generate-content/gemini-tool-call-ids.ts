import { GatewayError } from '../../core/gateway-error.js';

/** A model turn's function call waiting for its functionResponse. */
interface PendingCall {
  callId: string;
  name: string;
}

/**
 * Ties Gemini's functionResponse parts to the functionCall parts before them, deterministically: a call's canonical id
 * is its own `id` when the client sent one, else `call_<content index>_<part index>` (the same history always gives
 * the same ids); a response takes the pending call with its `id`, else the first pending call of its name.
 */
export class GeminiToolCallIds {
  private pending: PendingCall[] = [];

  /** The canonical id of the call at `contents[contentIndex].parts[partIndex]`; it waits for its response. */
  callId(name: string, id: string | undefined, contentIndex: number, partIndex: number): string {
    const callId = id ?? `call_${contentIndex}_${partIndex}`;
    this.pending.push({ callId, name });
    return callId;
  }

  /**
   * @param orphansAllowed - true when a response that answers no call gets an id of its own (counting tokens of part
   * of a conversation), false when it is a 400
   */
  constructor(private readonly orphansAllowed = false) {}

  /** The canonical id of the call a functionResponse answers; 400 naming `param` when no call waits for it. */
  responseCallId(name: string, id: string | undefined, param: string): string {
    const index =
      id === undefined
        ? this.pending.findIndex((call) => call.name === name)
        : this.pending.findIndex((call) => call.callId === id);
    const call = this.pending[index];
    if (!call) {
      if (this.orphansAllowed) return id ?? `orphan_${param}`;
      throw new GatewayError(
        'invalid_request_error',
        `The functionResponse '${name}'${id === undefined ? '' : ` (id '${id}')`} answers no earlier functionCall.`,
        { param },
      );
    }
    this.pending.splice(index, 1);
    return call.callId;
  }
}
