const filesApiHost = 'generativelanguage.googleapis.com';

/** Whether a URL names a file uploaded through the Gemini Files API, which Gemini reads itself as `fileData`. */
export function isGeminiFileUri(url: string): boolean {
  try {
    const parsed = new URL(url);
    return (
      parsed.protocol === 'https:' &&
      parsed.hostname.toLowerCase() === filesApiHost &&
      parsed.pathname.includes('/files/')
    );
  } catch {
    return false;
  }
}
