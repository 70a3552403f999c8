// GET /v1/models and GET /v1/models/:id: a short fixed list; any id is reported as existing.

/** One model object, as OpenAI lists it. */
export interface SimulatedModel {
  /** the model name */
  id: string;
  /** always `model` */
  object: 'model';
  /** Unix seconds */
  created: number;
  /** always `simulator` */
  owned_by: string;
}

const listedModelIds = ['gpt-4o', 'gpt-4o-mini', 'text-embedding-3-small', 'dall-e-3', 'gpt-image-1', 'whisper-1'];
/** A fixed date (2024-05-13) so answers are stable. */
const modelCreatedAt = 1_715_558_400;

/** The model object for any id. */
export function modelObject(id: string): SimulatedModel {
  return { id, object: 'model', created: modelCreatedAt, owned_by: 'simulator' };
}

/** The list answer of GET /v1/models. */
export function modelList(): { object: 'list'; data: SimulatedModel[] } {
  return { object: 'list', data: listedModelIds.map(modelObject) };
}
