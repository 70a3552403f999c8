/**
 * Micro-units per image of a model whose price has no image price at all. Admission refuses image requests for such a
 * model (requireModelPrice), so this only keeps a settlement that somehow met one from being free.
 */
export const fallbackImagePrice = 40_000;
