/**
 * What a request asks of a vendor, estimated from it before it is sent: all billing reads of a request to hold its
 * worst case (and, for images, to price what came back). Each client protocol builds it from its own typed request
 * (src/protocols/), so billing never reads a request body (ADR 0021).
 */
export interface RequestEstimate {
  /** tokens of the request's input: texts by UTF-8 length, images, audio and files by size, inline PDFs excepted */
  inputTokens: number;
  /**
   * the string carrying each inline PDF's data (a `data:` URL or bare base64), one per file part in request order: held
   * by its pages, which billing counts after admission within the request's decompression budget
   */
  inlinePdfs: readonly string[];
  /** output tokens one generation may use as the request caps them; undefined: the model's catalog cap, else the default */
  outputTokenCap: number | undefined;
  /** completions the vendor generates: `n`, or `best_of` (at least `n`) for each prompt of a legacy batch; else 1 */
  generations: number;
  /** the images an images request asks for; undefined for every other endpoint */
  requestedImages: RequestedImages | undefined;
  /** tokens of a transcription's `prompt` (0 without one, and for every other endpoint) */
  transcriptionPromptTokens: number;
  /** a speech request's output audio tokens as expected (not the worst case), billed when its answer reports no usage; absent elsewhere */
  expectedOutputTokens?: number;
}

/** The images an images request (generations, edits) asks for. */
export interface RequestedImages {
  /** the size and quality of each image, as asked (undefined: the vendor's default), which its price depends on */
  image: { size: string | undefined; quality: string | undefined };
  /** images asked for (`n`, 1 without it) */
  count: number;
}
