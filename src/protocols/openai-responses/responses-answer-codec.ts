import type { ClientAnswerCodec } from '../../core/canonical/client-answer-codec.js';
import { encodeResponse } from './encode-response.js';
import { formatResponsesEvent } from './format-responses-event.js';
import { responsesParamName } from './responses-param-name.js';
import type { ResponseEncodingContext } from './response-encoding-context.js';
import { createResponsesStreamEncoder } from './responses-stream-encoder.js';
import type { ResponsesResponse, ResponsesStreamEvent } from './responses-wire-types.js';

/** What the Responses codec needs beside the encoding context. */
export interface ResponsesAnswerCodecOptions {
  /**
   * receives the final Response object once (JSON answer, or a stream's terminal event), so the route can store it;
   * the answer's last bytes wait for the promise it returns
   */
  onFinalResponse?: (response: ResponsesResponse) => void | Promise<void>;
}

/** Event types that end a streamed response and carry the final Response object. */
const terminalEventTypes = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * The Responses client protocol as a ClientAnswerCodec: a JSON Response object, or `event:`/`data:` frames with no
 * `[DONE]`; a stream cut off after its first frame ends with the terminal `response.failed`.
 */
export function responsesAnswerCodec(
  context: ResponseEncodingContext,
  options: ResponsesAnswerCodecOptions = {},
): ClientAnswerCodec {
  let finalResponseHandled: void | Promise<void>;
  const report = (events: ResponsesStreamEvent[]): string[] => {
    for (const event of events) {
      if (terminalEventTypes.has(event.type))
        finalResponseHandled = options.onFinalResponse?.(event.response as ResponsesResponse);
    }
    return events.map(formatResponsesEvent);
  };
  return {
    encodeAnswer(answer) {
      const response = encodeResponse(answer, context);
      finalResponseHandled = options.onFinalResponse?.(response);
      return JSON.stringify(response);
    },
    beforeLastBytes: async () => {
      await finalResponseHandled;
    },
    clientParam: responsesParamName,
    createStreamEncoder() {
      const encoder = createResponsesStreamEncoder(context);
      return {
        start: () => report(encoder.start()),
        push: (part) => report(encoder.push(part)),
        end: () => report(encoder.end()),
        // An error part folds the failure into the answer; the encoder then closes open items and emits `response.failed`.
        fail: (failure) => report(encoder.push({ type: 'error', failure })),
      };
    },
  };
}
