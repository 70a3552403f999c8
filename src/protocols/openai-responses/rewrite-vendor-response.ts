/** The ids a vendor's Response is shown to the client with. */
export interface GatewayResponseIds {
  /** the gateway's `resp_...` id that replaces the vendor's */
  responseId: string;
  /** the gateway id the client continued from (replaces whatever the vendor echoes), or null */
  previousResponseId: string | null;
  /** the public model id the client asked for, shown instead of the channel's model name */
  model: string;
}

/** A vendor's Response object with the gateway's ids and the public model id; also returns the vendor's own id (kept private). */
export function rewriteVendorResponse(
  response: Record<string, unknown>,
  ids: GatewayResponseIds,
): { response: Record<string, unknown>; vendorResponseId: string | undefined } {
  const vendorResponseId = typeof response.id === 'string' ? response.id : undefined;
  const rewritten: Record<string, unknown> = { ...response, id: ids.responseId, model: ids.model };
  if ('previous_response_id' in response) rewritten.previous_response_id = ids.previousResponseId;
  return { response: rewritten, vendorResponseId };
}

/** One vendor stream event after rewriting, with what the relay needs to know about it. */
export interface RewrittenVendorEvent {
  /** the event, ids replaced */
  event: Record<string, unknown>;
  /** the event's `type` */
  type: string;
  /** the vendor's response id, when the event carried a Response */
  vendorResponseId: string | undefined;
}

/**
 * A vendor stream event with every trace of the vendor's response id replaced: the Response that lifecycle events
 * carry (`response.created` ... `response.completed`) and the `response_id` of audio events. Item ids stay (they are
 * the vendor's item ids, which the vendor resolves again when the conversation continues on it).
 */
export function rewriteVendorEvent(event: Record<string, unknown>, ids: GatewayResponseIds): RewrittenVendorEvent {
  const type = typeof event.type === 'string' ? event.type : '';
  let vendorResponseId: string | undefined;
  const rewritten: Record<string, unknown> = { ...event };
  if (event.response !== null && typeof event.response === 'object') {
    const result = rewriteVendorResponse(event.response as Record<string, unknown>, ids);
    rewritten.response = result.response;
    vendorResponseId = result.vendorResponseId;
  }
  if (typeof event.response_id === 'string') rewritten.response_id = ids.responseId;
  return { event: rewritten, type, vendorResponseId };
}
