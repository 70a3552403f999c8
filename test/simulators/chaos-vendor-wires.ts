// The wire formats the chaos vendor speaks: for each upstream protocol the gateway uses, a well-formed answer
// (whole and streamed), its error body, its mid-stream error event and the wrong shapes a broken vendor sends.
import { encodeStreamEvent, encodeStreamException } from './bedrock-simulator-stream.js';

/** An upstream endpoint the gateway calls, as the chaos vendor recognises it from the request path. */
export type ChaosWire =
  | 'openai-chat'
  | 'openai-completions'
  | 'openai-embeddings'
  | 'openai-images'
  | 'openai-responses'
  | 'anthropic-messages'
  | 'gemini-generate'
  | 'gemini-embeddings'
  | 'bedrock-converse';

/** One frame of a streamed answer: SSE text, or a binary AWS event-stream frame. */
export type ChaosFrame = string | Uint8Array;

/** Everything the chaos vendor needs to answer one endpoint in its own wire format. */
export interface ChaosWireFormat {
  /** the content type of a streamed answer */
  streamContentType: string;
  /** a well-formed whole answer (JSON) */
  successBody(): string;
  /** a well-formed streamed answer, its terminal frame(s) last */
  streamFrames(): ChaosFrame[];
  /** how many frames of `streamFrames` make a stream cut off before its end (content sent, no finish) */
  framesBeforeEnd: number;
  /** a mid-stream error event carrying `message` (for Responses: followed by its `response.failed`) */
  streamErrorFrames(message: string): ChaosFrame[];
  /** a frame whose payload is not what the protocol sends (an HTML page where JSON belongs, corrupt binary framing) */
  unreadableFrame(): ChaosFrame;
  /** one event of `characters` characters (Bedrock: a frame prelude announcing that many bytes) */
  oversizedFrame(characters: number): ChaosFrame;
  /** the vendor's JSON error body carrying `message`, and its extra headers */
  errorBody(status: number, message: string): { body: string; headers: Record<string, string> };
  /** 2xx bodies that are not the endpoint's shape: JSON `[]`, the answer without its main field, `usage` as a string */
  wrongShapes: { emptyArray: string; missingMainField: string; usageAsString: string };
}

/** The text every successful chaos answer carries, so a test can tell the vendor's success apart. */
export const chaosAnswerText = 'chaos vendor answer';

const sse = (data: unknown, event?: string): string =>
  `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

const openAiUsage = { prompt_tokens: 5, completion_tokens: 3, total_tokens: 8 };

function openAiError(status: number, message: string): { body: string; headers: Record<string, string> } {
  return {
    body: JSON.stringify({
      error: { message, type: status >= 500 ? 'server_error' : 'invalid_request_error', param: null, code: null },
    }),
    headers: {},
  };
}

const chat: ChaosWireFormat = {
  streamContentType: 'text/event-stream',
  successBody: () =>
    JSON.stringify({
      id: 'chatcmpl-chaos',
      object: 'chat.completion',
      created: 1,
      model: 'chaos',
      choices: [{ index: 0, message: { role: 'assistant', content: chaosAnswerText }, finish_reason: 'stop' }],
      usage: openAiUsage,
    }),
  streamFrames: () => [
    sse({
      id: 'chatcmpl-chaos',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'chaos',
      choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }],
    }),
    sse({
      id: 'chatcmpl-chaos',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'chaos',
      choices: [{ index: 0, delta: { content: chaosAnswerText }, finish_reason: null }],
    }),
    sse({
      id: 'chatcmpl-chaos',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'chaos',
      choices: [{ index: 0, delta: {}, finish_reason: 'stop' }],
    }),
    sse({
      id: 'chatcmpl-chaos',
      object: 'chat.completion.chunk',
      created: 1,
      model: 'chaos',
      choices: [],
      usage: openAiUsage,
    }),
    sse('[DONE]'),
  ],
  framesBeforeEnd: 2,
  streamErrorFrames: (message) => [sse({ error: { message, type: 'server_error', param: null, code: null } })],
  unreadableFrame: () => sse('<html><body><h1>502 Bad Gateway</h1></body></html>'),
  oversizedFrame: (characters) => sse({ padding: 'x'.repeat(characters) }),
  errorBody: openAiError,
  wrongShapes: {
    emptyArray: '[]',
    missingMainField: JSON.stringify({
      id: 'chatcmpl-chaos',
      object: 'chat.completion',
      created: 1,
      model: 'chaos',
      usage: openAiUsage,
    }),
    usageAsString: JSON.stringify({
      id: 'chatcmpl-chaos',
      object: 'chat.completion',
      created: 1,
      model: 'chaos',
      choices: [{ index: 0, message: { role: 'assistant', content: chaosAnswerText }, finish_reason: 'stop' }],
      usage: 'lots',
    }),
  },
};

const completions: ChaosWireFormat = {
  ...chat,
  successBody: () =>
    JSON.stringify({
      id: 'cmpl-chaos',
      object: 'text_completion',
      created: 1,
      model: 'chaos',
      choices: [{ index: 0, text: chaosAnswerText, finish_reason: 'stop', logprobs: null }],
      usage: openAiUsage,
    }),
  streamFrames: () => [
    sse({
      id: 'cmpl-chaos',
      object: 'text_completion',
      created: 1,
      model: 'chaos',
      choices: [{ index: 0, text: chaosAnswerText, finish_reason: null, logprobs: null }],
    }),
    sse({
      id: 'cmpl-chaos',
      object: 'text_completion',
      created: 1,
      model: 'chaos',
      choices: [{ index: 0, text: '', finish_reason: 'stop', logprobs: null }],
    }),
    sse({ id: 'cmpl-chaos', object: 'text_completion', created: 1, model: 'chaos', choices: [], usage: openAiUsage }),
    sse('[DONE]'),
  ],
  framesBeforeEnd: 1,
  wrongShapes: {
    emptyArray: '[]',
    missingMainField: JSON.stringify({
      id: 'cmpl-chaos',
      object: 'text_completion',
      created: 1,
      model: 'chaos',
      usage: openAiUsage,
    }),
    usageAsString: JSON.stringify({
      id: 'cmpl-chaos',
      object: 'text_completion',
      created: 1,
      model: 'chaos',
      choices: [{ index: 0, text: chaosAnswerText, finish_reason: 'stop', logprobs: null }],
      usage: 'lots',
    }),
  },
};

const embeddings: ChaosWireFormat = {
  ...chat,
  successBody: () =>
    JSON.stringify({
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: [0.25, -0.5, 0.125] }],
      model: 'chaos',
      usage: { prompt_tokens: 5, total_tokens: 5 },
    }),
  wrongShapes: {
    emptyArray: '[]',
    missingMainField: JSON.stringify({ object: 'list', model: 'chaos', usage: { prompt_tokens: 5, total_tokens: 5 } }),
    usageAsString: JSON.stringify({
      object: 'list',
      data: [{ object: 'embedding', index: 0, embedding: [0.25] }],
      model: 'chaos',
      usage: 'lots',
    }),
  },
};

const images: ChaosWireFormat = {
  ...chat,
  // One transparent pixel: an image the gateway can pass on.
  successBody: () =>
    JSON.stringify({
      created: 1,
      data: [
        { b64_json: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=' },
      ],
    }),
  wrongShapes: {
    emptyArray: '[]',
    missingMainField: JSON.stringify({ created: 1 }),
    usageAsString: JSON.stringify({ created: 1, data: [{ b64_json: 'AAAA' }], usage: 'lots' }),
  },
};

function responseObject(status: 'in_progress' | 'completed'): Record<string, unknown> {
  const output =
    status === 'completed'
      ? [
          {
            type: 'message',
            id: 'msg_chaos',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: chaosAnswerText, annotations: [] }],
          },
        ]
      : [];
  return {
    id: 'resp_chaos',
    object: 'response',
    created_at: 1,
    status,
    model: 'chaos',
    output,
    usage: status === 'completed' ? { input_tokens: 5, output_tokens: 3, total_tokens: 8 } : null,
  };
}

const responses: ChaosWireFormat = {
  streamContentType: 'text/event-stream',
  successBody: () => JSON.stringify(responseObject('completed')),
  streamFrames: () => [
    sse({ type: 'response.created', sequence_number: 0, response: responseObject('in_progress') }, 'response.created'),
    sse(
      {
        type: 'response.output_text.delta',
        sequence_number: 1,
        item_id: 'msg_chaos',
        output_index: 0,
        content_index: 0,
        delta: chaosAnswerText,
      },
      'response.output_text.delta',
    ),
    sse(
      { type: 'response.completed', sequence_number: 2, response: responseObject('completed') },
      'response.completed',
    ),
  ],
  framesBeforeEnd: 2,
  streamErrorFrames: (message) => [
    sse({ type: 'error', sequence_number: 2, code: 'server_error', message, param: null }, 'error'),
    sse(
      {
        type: 'response.failed',
        sequence_number: 3,
        response: { ...responseObject('in_progress'), status: 'failed', error: { code: 'server_error', message } },
      },
      'response.failed',
    ),
  ],
  unreadableFrame: () => sse('<html><body>upstream proxy error</body></html>', 'response.output_text.delta'),
  oversizedFrame: (characters) =>
    sse({ type: 'response.output_text.delta', delta: 'x'.repeat(characters) }, 'response.output_text.delta'),
  errorBody: openAiError,
  wrongShapes: {
    emptyArray: '[]',
    missingMainField: JSON.stringify({
      id: 'resp_chaos',
      object: 'response',
      status: 'completed',
      model: 'chaos',
      usage: { input_tokens: 5, output_tokens: 3, total_tokens: 8 },
    }),
    usageAsString: JSON.stringify({ ...responseObject('completed'), usage: 'lots' }),
  },
};

const anthropicUsage = { input_tokens: 5, output_tokens: 3 };

const messages: ChaosWireFormat = {
  streamContentType: 'text/event-stream; charset=utf-8',
  successBody: () =>
    JSON.stringify({
      id: 'msg_chaos',
      type: 'message',
      role: 'assistant',
      model: 'chaos',
      content: [{ type: 'text', text: chaosAnswerText }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: anthropicUsage,
    }),
  streamFrames: () => [
    sse(
      {
        type: 'message_start',
        message: {
          id: 'msg_chaos',
          type: 'message',
          role: 'assistant',
          model: 'chaos',
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 5, output_tokens: 1 },
        },
      },
      'message_start',
    ),
    sse({ type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } }, 'content_block_start'),
    sse(
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: chaosAnswerText } },
      'content_block_delta',
    ),
    sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop'),
    sse(
      { type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } },
      'message_delta',
    ),
    sse({ type: 'message_stop' }, 'message_stop'),
  ],
  framesBeforeEnd: 3,
  streamErrorFrames: (message) => [sse({ type: 'error', error: { type: 'api_error', message } }, 'error')],
  unreadableFrame: () => sse('<html><body>upstream proxy error</body></html>', 'content_block_delta'),
  oversizedFrame: (characters) =>
    sse(
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'x'.repeat(characters) } },
      'content_block_delta',
    ),
  errorBody: (status, message) => ({
    body: JSON.stringify({
      type: 'error',
      error: { type: status >= 500 ? 'api_error' : 'invalid_request_error', message },
    }),
    headers: {},
  }),
  wrongShapes: {
    emptyArray: '[]',
    missingMainField: JSON.stringify({
      id: 'msg_chaos',
      type: 'message',
      role: 'assistant',
      model: 'chaos',
      stop_reason: 'end_turn',
      usage: anthropicUsage,
    }),
    usageAsString: JSON.stringify({
      id: 'msg_chaos',
      type: 'message',
      role: 'assistant',
      model: 'chaos',
      content: [{ type: 'text', text: chaosAnswerText }],
      stop_reason: 'end_turn',
      usage: 'lots',
    }),
  },
};

const geminiUsage = { promptTokenCount: 5, candidatesTokenCount: 3, totalTokenCount: 8 };
const geminiSse = (chunk: unknown): string =>
  `data: ${typeof chunk === 'string' ? chunk : JSON.stringify(chunk)}\r\n\r\n`;

function geminiError(status: number, message: string): { body: string; headers: Record<string, string> } {
  return {
    body: JSON.stringify({ error: { code: status, message, status: status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT' } }),
    headers: {},
  };
}

const gemini: ChaosWireFormat = {
  streamContentType: 'text/event-stream',
  successBody: () =>
    JSON.stringify({
      candidates: [{ content: { role: 'model', parts: [{ text: chaosAnswerText }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: geminiUsage,
      modelVersion: 'chaos',
      responseId: 'chaos-response',
    }),
  streamFrames: () => [
    geminiSse({
      candidates: [{ content: { role: 'model', parts: [{ text: chaosAnswerText }] }, index: 0 }],
      usageMetadata: { promptTokenCount: 5 },
      modelVersion: 'chaos',
      responseId: 'chaos-response',
    }),
    geminiSse({
      candidates: [{ content: { role: 'model', parts: [{ text: '.' }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: geminiUsage,
      modelVersion: 'chaos',
      responseId: 'chaos-response',
    }),
  ],
  framesBeforeEnd: 1,
  streamErrorFrames: (message) => [geminiSse({ error: { code: 500, message, status: 'INTERNAL' } })],
  unreadableFrame: () => geminiSse('<html><body>upstream proxy error</body></html>'),
  oversizedFrame: (characters) =>
    geminiSse({ candidates: [{ content: { role: 'model', parts: [{ text: 'x'.repeat(characters) }] }, index: 0 }] }),
  errorBody: geminiError,
  wrongShapes: {
    emptyArray: '[]',
    missingMainField: JSON.stringify({ usageMetadata: geminiUsage, modelVersion: 'chaos' }),
    usageAsString: JSON.stringify({
      candidates: [{ content: { role: 'model', parts: [{ text: chaosAnswerText }] }, finishReason: 'STOP', index: 0 }],
      usageMetadata: 'lots',
    }),
  },
};

const geminiEmbeddings: ChaosWireFormat = {
  ...gemini,
  successBody: () => JSON.stringify({ embeddings: [{ values: [0.25, -0.5, 0.125] }] }),
  // batchEmbedContents reports no usage: its wrong third shape is a vector that is not numbers.
  wrongShapes: {
    emptyArray: '[]',
    missingMainField: JSON.stringify({ model: 'chaos' }),
    usageAsString: JSON.stringify({ embeddings: [{ values: 'lots' }] }),
  },
};

const bedrock: ChaosWireFormat = {
  streamContentType: 'application/vnd.amazon.eventstream',
  successBody: () =>
    JSON.stringify({
      output: { message: { role: 'assistant', content: [{ text: chaosAnswerText }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: 5, outputTokens: 3, totalTokens: 8 },
      metrics: { latencyMs: 1 },
    }),
  streamFrames: () => [
    encodeStreamEvent({ eventType: 'messageStart', payload: { role: 'assistant' } }),
    encodeStreamEvent({
      eventType: 'contentBlockDelta',
      payload: { contentBlockIndex: 0, delta: { text: chaosAnswerText } },
    }),
    encodeStreamEvent({ eventType: 'contentBlockStop', payload: { contentBlockIndex: 0 } }),
    encodeStreamEvent({ eventType: 'messageStop', payload: { stopReason: 'end_turn' } }),
    encodeStreamEvent({
      eventType: 'metadata',
      payload: { usage: { inputTokens: 5, outputTokens: 3, totalTokens: 8 }, metrics: { latencyMs: 1 } },
    }),
  ],
  framesBeforeEnd: 2,
  streamErrorFrames: (message) => [encodeStreamException('modelStreamErrorException', message)],
  // A frame whose length prefix promises more than AWS allows: corrupt framing.
  unreadableFrame: () => Buffer.from('<html><body>upstream proxy error</body></html>'),
  oversizedFrame: (characters) => {
    const prelude = Buffer.alloc(12);
    prelude.writeUInt32BE(characters, 0);
    return prelude;
  },
  errorBody: (status, message) => ({
    body: JSON.stringify({ message }),
    headers: {
      'x-amzn-errortype': `${status >= 500 ? 'InternalServerException' : 'ValidationException'}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
    },
  }),
  wrongShapes: {
    emptyArray: '[]',
    missingMainField: JSON.stringify({
      stopReason: 'end_turn',
      usage: { inputTokens: 5, outputTokens: 3, totalTokens: 8 },
    }),
    usageAsString: JSON.stringify({
      output: { message: { role: 'assistant', content: [{ text: chaosAnswerText }] } },
      stopReason: 'end_turn',
      usage: 'lots',
    }),
  },
};

/** The wire format of each endpoint. */
export const chaosWireFormats: Readonly<Record<ChaosWire, ChaosWireFormat>> = {
  'openai-chat': chat,
  'openai-completions': completions,
  'openai-embeddings': embeddings,
  'openai-images': images,
  'openai-responses': responses,
  'anthropic-messages': messages,
  'gemini-generate': gemini,
  'gemini-embeddings': geminiEmbeddings,
  'bedrock-converse': bedrock,
};

/** The endpoint a request path names, and whether the path itself asks for a stream (Gemini, Bedrock); undefined when unknown. */
export function findChaosWire(path: string): { wire: ChaosWire; streamByPath: boolean } | undefined {
  const pathname = path.split('?')[0] ?? '';
  if (pathname.endsWith('/chat/completions')) return { wire: 'openai-chat', streamByPath: false };
  if (pathname.endsWith('/completions')) return { wire: 'openai-completions', streamByPath: false };
  if (pathname.endsWith('/embeddings')) return { wire: 'openai-embeddings', streamByPath: false };
  if (pathname.endsWith('/images/generations')) return { wire: 'openai-images', streamByPath: false };
  if (pathname.endsWith('/responses')) return { wire: 'openai-responses', streamByPath: false };
  if (pathname.endsWith('/messages')) return { wire: 'anthropic-messages', streamByPath: false };
  if (pathname.endsWith(':streamGenerateContent')) return { wire: 'gemini-generate', streamByPath: true };
  if (pathname.endsWith(':generateContent')) return { wire: 'gemini-generate', streamByPath: false };
  if (pathname.endsWith(':batchEmbedContents') || pathname.endsWith(':embedContent'))
    return { wire: 'gemini-embeddings', streamByPath: false };
  if (pathname.endsWith('/converse-stream')) return { wire: 'bedrock-converse', streamByPath: true };
  if (pathname.endsWith('/converse')) return { wire: 'bedrock-converse', streamByPath: false };
  return undefined;
}
