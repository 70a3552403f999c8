/** Makes a fresh gateway item id with the prefix (`msg`, `fc`, `fco`, `rs`, `item`). */
export type CreateItemId = (prefix: string) => string;

/** Item id prefixes by item type, as OpenAI names them. */
const prefixByType: Readonly<Record<string, string>> = {
  message: 'msg',
  function_call: 'fc',
  function_call_output: 'fco',
  reasoning: 'rs',
};

/**
 * The request's `input` as stored items (what `input_items` lists and a chain replays): a string becomes one user
 * message; every item gets `type` (clients omit it on messages) and a gateway id in place of any id it came with,
 * and a message's string content becomes one text part (`output_text` for the assistant, `input_text` otherwise).
 */
export function assignInputItemIds(input: unknown, createItemId: CreateItemId): Array<Record<string, unknown>> {
  if (typeof input === 'string')
    return [{ id: createItemId('msg'), type: 'message', role: 'user', content: [{ type: 'input_text', text: input }] }];
  if (!Array.isArray(input)) return [];
  return input.map((value: unknown) => {
    const item = { ...(value as Record<string, unknown>) };
    const type = typeof item.type === 'string' ? item.type : 'message';
    item.type = type;
    if (type === 'message' && typeof item.content === 'string') {
      item.content = [
        item.role === 'assistant'
          ? { type: 'output_text', text: item.content, annotations: [] }
          : { type: 'input_text', text: item.content },
      ];
    }
    return { id: createItemId(prefixByType[type] ?? 'item'), ...withoutId(item) };
  });
}

function withoutId(item: Record<string, unknown>): Record<string, unknown> {
  const { id: _id, ...rest } = item;
  return rest;
}
