import { describe, expect, it } from 'vitest';
import { buildKeySnippets, gatewayBaseUrl, snippetModelOf } from './key-snippets';

describe('key snippets', () => {
  it('point every snippet at this gateway’s /v1 with the new key', () => {
    const baseUrl = gatewayBaseUrl('https://gateway.example/');
    expect(baseUrl).toBe('https://gateway.example/v1');
    const snippets = buildKeySnippets(baseUrl, 'sk-gw-secret', 'gpt-4o');
    expect(snippets.curl).toContain('curl https://gateway.example/v1/chat/completions');
    expect(snippets.curl).toContain('Authorization: Bearer sk-gw-secret');
    expect(snippets.python).toContain('OpenAI(base_url="https://gateway.example/v1", api_key="sk-gw-secret")');
    expect(snippets.node).toContain("new OpenAI({ baseURL: 'https://gateway.example/v1', apiKey: 'sk-gw-secret' })");
    for (const snippet of Object.values(snippets)) expect(snippet).toContain('gpt-4o');
  });

  it('sends a curl body that is valid JSON', () => {
    const curl = buildKeySnippets('http://127.0.0.1:3000/v1', 'sk', 'm').curl;
    const body = /-d '(.*)'$/m.exec(curl)?.[1];
    expect(JSON.parse(body ?? '')).toEqual({ model: 'm', messages: [{ role: 'user', content: 'Hello!' }] });
  });

  it('picks a served, concrete model of the group', () => {
    expect(snippetModelOf([{ id: '*', available: true }, { id: 'old', available: false }, { id: 'new', available: true }])).toBe('new');
    expect(snippetModelOf([{ id: '*', available: true }])).toBe('gpt-4o-mini');
  });
});
