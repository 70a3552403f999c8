/** Ready-to-run examples of calling the gateway with a new key. */
export interface KeySnippets {
  curl: string;
  python: string;
  node: string;
}

/** The gateway's OpenAI-compatible base URL for a console served at `origin` (same origin as /v1). */
export function gatewayBaseUrl(origin: string): string {
  return `${origin.replace(/\/+$/, '')}/v1`;
}

/**
 * curl, Python and Node.js snippets that send one chat request with `secret` to this gateway; `model` is a model
 * of the key's group (a placeholder when the group names none).
 */
export function buildKeySnippets(baseUrl: string, secret: string, model: string): KeySnippets {
  const body = JSON.stringify({ model, messages: [{ role: 'user', content: 'Hello!' }] });
  return {
    curl: [
      `curl ${baseUrl}/chat/completions \\`,
      `  -H "Authorization: Bearer ${secret}" \\`,
      `  -H "Content-Type: application/json" \\`,
      `  -d '${body}'`,
    ].join('\n'),
    python: [
      'from openai import OpenAI',
      '',
      `client = OpenAI(base_url="${baseUrl}", api_key="${secret}")`,
      'completion = client.chat.completions.create(',
      `    model="${model}",`,
      '    messages=[{"role": "user", "content": "Hello!"}],',
      ')',
      'print(completion.choices[0].message.content)',
    ].join('\n'),
    node: [
      "import OpenAI from 'openai';",
      '',
      `const client = new OpenAI({ baseURL: '${baseUrl}', apiKey: '${secret}' });`,
      'const completion = await client.chat.completions.create({',
      `  model: '${model}',`,
      "  messages: [{ role: 'user', content: 'Hello!' }],",
      '});',
      'console.log(completion.choices[0].message.content);',
    ].join('\n'),
  };
}

/** The model a snippet uses: the group's first concrete, served model, else a placeholder. */
export function snippetModelOf(models: ReadonlyArray<{ id: string; available: boolean }>): string {
  return models.find((model) => model.available && model.id !== '*')?.id ?? models.find((model) => model.id !== '*')?.id ?? 'gpt-4o-mini';
}
