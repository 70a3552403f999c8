const deltaTextPattern = /"(?:content|arguments|text|reasoning_content)":"((?:[^"\\]|\\.)*)"/g;

/**
 * Appends the generated text of one OpenAI stream chunk (content, tool arguments, legacy text) to `into`
 * without parsing the chunk: only needed if the stream ends without a usage chunk, to count tokens.
 */
export function collectDeltaText(chunkData: string, into: string[]): void {
  for (const match of chunkData.matchAll(deltaTextPattern)) {
    const escaped = match[1];
    if (!escaped) continue;
    into.push(escaped.includes('\\') ? (JSON.parse(`"${escaped}"`) as string) : escaped);
  }
}
