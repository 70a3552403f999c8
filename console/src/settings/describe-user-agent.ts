/** What a person recognises in a User-Agent: the browser and the system, e.g. "Chrome on Linux"; null when unknown. */
export function describeUserAgent(userAgent: string | null): { browser: string; system: string } | null {
  if (!userAgent) return null;
  const browser = firstMatch(userAgent, [
    [/Edg\//, 'Edge'],
    [/OPR\//, 'Opera'],
    [/Firefox\//, 'Firefox'],
    [/Chrom(e|ium)\//, 'Chrome'],
    [/Safari\//, 'Safari'],
    [/curl\//, 'curl'],
  ]);
  const system = firstMatch(userAgent, [
    [/Android/, 'Android'],
    [/iPhone|iPad/, 'iOS'],
    [/Windows/, 'Windows'],
    [/Mac OS X|Macintosh/, 'macOS'],
    [/CrOS/, 'ChromeOS'],
    [/Linux/, 'Linux'],
  ]);
  if (browser === null && system === null) return null;
  return { browser: browser ?? '?', system: system ?? '?' };
}

function firstMatch(text: string, patterns: Array<[RegExp, string]>): string | null {
  for (const [pattern, name] of patterns) if (pattern.test(text)) return name;
  return null;
}
