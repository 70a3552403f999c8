import { describe, expect, it } from 'vitest';
import { messagesPromptPrefixKey } from '../anthropic-messages/messages-prompt-prefix-key.js';
import { chatPromptPrefixKey } from '../openai-chat/chat-prompt-prefix-key.js';
import { responsesPromptPrefixKey } from '../openai-responses/responses-prompt-prefix-key.js';

const marked = { type: 'ephemeral' };

describe('prompt prefix keys', () => {
  it('Messages: the same key for every turn of a conversation wherever its breakpoints move; none without cache_control', () => {
    const system = 'You are an agent.';
    const turnOne = {
      system,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'first', cache_control: marked }] }],
    };
    const turnTwo = {
      system,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'first' }] },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: [{ type: 'text', text: 'second', cache_control: marked }] },
      ],
    };
    expect(messagesPromptPrefixKey(turnOne)).toBeDefined();
    expect(messagesPromptPrefixKey(turnTwo)).toBe(messagesPromptPrefixKey(turnOne));
    expect(messagesPromptPrefixKey({ ...turnTwo, system: 'Another agent.' })).not.toBe(
      messagesPromptPrefixKey(turnOne),
    );
    expect(messagesPromptPrefixKey({ system, messages: [{ role: 'user', content: 'first' }] })).toBeUndefined();
  });

  it('chat: prompt_cache_key when sent, else the leading system messages and tools; none without either', () => {
    const messages = [
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'hi' },
    ];
    expect(chatPromptPrefixKey({ prompt_cache_key: 'session-1', messages })).toBe('key:session-1');
    const key = chatPromptPrefixKey({ messages });
    expect(key).toMatch(/^hash:/);
    expect(chatPromptPrefixKey({ messages: [...messages, { role: 'assistant', content: 'x' }] })).toBe(key);
    expect(chatPromptPrefixKey({ messages, tools: [{ type: 'function' }] })).not.toBe(key);
    expect(chatPromptPrefixKey({ messages: [{ role: 'user', content: 'hi' }] })).toBeUndefined();
  });

  it('Responses: prompt_cache_key (Codex), else instructions and leading developer items', () => {
    expect(responsesPromptPrefixKey({ prompt_cache_key: 'codex-session', input: 'hi' })).toBe('key:codex-session');
    const key = responsesPromptPrefixKey({ instructions: 'Be brief.', input: 'hi' });
    expect(key).toBe(responsesPromptPrefixKey({ instructions: 'Be brief.', input: [{ role: 'user', content: 'x' }] }));
    expect(responsesPromptPrefixKey({ input: [{ role: 'developer', content: 'rules' }] })).toMatch(/^hash:/);
    expect(responsesPromptPrefixKey({ input: 'hi' })).toBeUndefined();
  });
});
