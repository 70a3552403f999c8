import type { SealedArtefact } from '../shared/reasoning-sealer.js';

/** Opens a reasoning item's `encrypted_content`; null drops the artefact (the reasoning text is kept). */
export type UnsealReasoning = (sealed: string) => SealedArtefact | null;
