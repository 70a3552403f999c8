/** `['input', 0, 'content']` → `input[0].content`, the way OpenAI names a parameter in its errors. */
export function formatParamPath(path: readonly PropertyKey[]): string {
  let formatted = '';
  for (const segment of path) {
    if (typeof segment === 'number') formatted += `[${segment}]`;
    else formatted += formatted ? `.${String(segment)}` : String(segment);
  }
  return formatted;
}
