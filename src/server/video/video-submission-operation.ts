import type { UnmeteredOperation } from '../observe-unmetered-request.js';

/** A video task submission's span: the GenAI conventions' `generate_content` for the model asked for (both surfaces). */
export function videoSubmissionOperation(modelId: string): UnmeteredOperation {
  return { operation: 'generate_content', modelId };
}
