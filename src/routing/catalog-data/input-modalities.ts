import type { InputModality } from '../catalog-model.js';

/** Text only. */
export const textOnly: readonly InputModality[] = ['text'];
/** Text and images (vision models). */
export const textAndImage: readonly InputModality[] = ['text', 'image'];
/** Audio files (transcription models). */
export const audioOnly: readonly InputModality[] = ['audio'];
