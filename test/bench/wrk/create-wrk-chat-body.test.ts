import { describe, expect, it } from 'vitest';
import { createWrkChatBody } from '../../../bench/wrk/create-wrk-chat-body.js';

describe('the wrk comparison request body', () => {
  it('is exactly the asked size, streamed or not, as JSON with the model and stream flag', () => {
    for (const stream of [false, true]) {
      const body = createWrkChatBody({ model: 'gpt-4o-mini', stream, bytes: 462 });
      expect(Buffer.byteLength(body)).toBe(462);
      expect(JSON.parse(body)).toMatchObject({ model: 'gpt-4o-mini', stream });
    }
  });

  it('refuses a size smaller than the request without filler', () => {
    expect(() => createWrkChatBody({ model: 'gpt-4o-mini', stream: false, bytes: 50 })).toThrow(/cannot be as small/);
  });
});
