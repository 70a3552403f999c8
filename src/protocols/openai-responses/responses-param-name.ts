/** Chat parameter names whose Responses counterparts differ (the rest are the same, e.g. `temperature`, `tools`). */
const responsesNames: Readonly<Record<string, string>> = {
  reasoning_effort: 'reasoning.effort',
  response_format: 'text.format',
  max_tokens: 'max_output_tokens',
  max_completion_tokens: 'max_output_tokens',
  user: 'safety_identifier',
};

/**
 * The Responses name for a parameter a 400 names in chat terms. A chat message path (`messages[2].content[0]...`)
 * becomes `input`: canonical messages do not match input items one to one (instructions, merged items), so the
 * error names the field, not a possibly wrong index.
 */
export function responsesParamName(chatParam: string): string {
  if (chatParam === 'messages' || chatParam.startsWith('messages[') || chatParam.startsWith('messages.'))
    return 'input';
  return responsesNames[chatParam] ?? chatParam;
}
