import type { CanonicalRequest } from '../../core/canonical/canonical-request.js';
import type { RequestEstimate } from '../../core/request-estimate.js';
import { estimateCanonicalRequest } from '../shared/estimate-canonical-request.js';

/**
 * The hold estimate of a generateContent request, from its canonical request: its input (systemInstruction, contents,
 * function declarations) and `generationConfig.maxOutputTokens` as its output cap (the model's cap when absent).
 */
export function estimateGeminiRequest(request: CanonicalRequest): RequestEstimate {
  return estimateCanonicalRequest(request);
}
