/** Chat parameter names and their generateContent counterparts. */
const geminiNames: Readonly<Record<string, string>> = {
  reasoning_effort: 'generationConfig.thinkingConfig',
  response_format: 'generationConfig.responseJsonSchema',
  max_completion_tokens: 'generationConfig.maxOutputTokens',
  max_tokens: 'generationConfig.maxOutputTokens',
  temperature: 'generationConfig.temperature',
  top_p: 'generationConfig.topP',
  top_k: 'generationConfig.topK',
  stop: 'generationConfig.stopSequences',
  seed: 'generationConfig.seed',
  presence_penalty: 'generationConfig.presencePenalty',
  frequency_penalty: 'generationConfig.frequencyPenalty',
  tool_choice: 'toolConfig.functionCallingConfig',
  tools: 'tools',
};

/**
 * The generateContent name for a parameter a 400 names in chat terms; a message path becomes `contents` (canonical
 * messages do not match the client's turns one to one: tool results and user parts are split).
 */
export function geminiParamName(chatParam: string): string {
  if (chatParam.startsWith('messages[') || chatParam.startsWith('messages.') || chatParam === 'messages')
    return 'contents';
  return geminiNames[chatParam] ?? chatParam;
}
