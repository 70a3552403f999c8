/** One count request to the tokenizer worker: the texts to tokenize (each non-empty and within the character limit). */
export interface TokenizerWorkerRequest {
  /** pairs the answer with its request */
  id: number;
  texts: string[];
}

/** The worker's answer: o200k token counts, one per text of the request, in its order. */
export interface TokenizerWorkerResponse {
  id: number;
  counts: number[];
}
