/** Chat parameter names whose Anthropic Messages counterparts differ (the rest are the same, e.g. `temperature`, `tools`). */
const messagesNames: Readonly<Record<string, string>> = {
  reasoning_effort: 'thinking',
  response_format: 'output_config.format',
  max_completion_tokens: 'max_tokens',
  stop: 'stop_sequences',
  parallel_tool_calls: 'tool_choice.disable_parallel_tool_use',
  user: 'metadata.user_id',
};

/** Chat parameters whose Messages counterpart means the opposite: `parallel_tool_calls: false` is `disable_parallel_tool_use: true`. */
const invertedMessagesNames: ReadonlySet<string> = new Set(['parallel_tool_calls']);

/** True when the Messages name of a chat parameter means its opposite, so advice of `true` must read `false`. */
export function messagesParamInverts(chatParam: string): boolean {
  return invertedMessagesNames.has(chatParam);
}

/**
 * The Messages name for a parameter a 400 names in chat terms. A chat message path (`messages[2].content[0]...`)
 * becomes `messages`: canonical messages do not match the client's one to one (system, merged turns, tool results),
 * so the error names the field, not a possibly wrong index.
 */
export function messagesParamName(chatParam: string): string {
  if (chatParam.startsWith('messages[') || chatParam.startsWith('messages.')) return 'messages';
  return messagesNames[chatParam] ?? chatParam;
}
