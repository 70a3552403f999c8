import type { SealedArtefact } from '../shared/reasoning-sealer.js';

/** What the Gemini codec needs to know about one request. */
export interface GeminiEncodingContext {
  /** the requested model id, shown as `modelVersion` */
  model: string;
  responseId: string;
  /** seals another vendor's artefact into a `thoughtSignature` (Gemini's own go back as they came) */
  sealArtefact: (sealed: SealedArtefact) => string;
  /** whether thought text is shown (`thinkingConfig.includeThoughts`) */
  includeThoughts: boolean;
  /** `sse` for `?alt=sse` (bare `data:` frames), `json-array` for a streamed JSON array (Google's default) */
  streamFraming: 'sse' | 'json-array';
}
