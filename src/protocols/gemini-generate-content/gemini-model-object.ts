/** What the Gemini model list needs to know of a catalog model. */
export interface GeminiListedModel {
  id: string;
  kind: string;
  contextWindow?: number;
  maxOutputTokens?: number;
  reasoning?: boolean;
}

/** Gemini's `Model` resource, as `GET /v1beta/models[/{model}]` answers it. */
export interface GeminiModelObject {
  name: string;
  baseModelId: string;
  version: string;
  displayName: string;
  inputTokenLimit?: number;
  outputTokenLimit?: number;
  supportedGenerationMethods: string[];
  thinking?: boolean;
}

/** The generation methods a model of each catalog kind serves here; empty for kinds Gemini's API does not serve. */
export function geminiGenerationMethods(kind: string): string[] {
  const generate = ['generateContent', 'streamGenerateContent', 'countTokens'];
  const embed = ['embedContent', 'batchEmbedContents'];
  if (kind === 'chat') return generate;
  if (kind === 'embedding') return embed;
  if (kind === 'any') return [...generate, ...embed];
  return [];
}

/** A catalog model as Gemini's Model (token limits only when the catalog knows them). */
export function toGeminiModelObject(model: GeminiListedModel): GeminiModelObject {
  return {
    name: `models/${model.id}`,
    baseModelId: model.id,
    version: '001',
    displayName: model.id,
    ...(model.contextWindow === undefined ? {} : { inputTokenLimit: model.contextWindow }),
    ...(model.maxOutputTokens === undefined ? {} : { outputTokenLimit: model.maxOutputTokens }),
    supportedGenerationMethods: geminiGenerationMethods(model.kind),
    ...(model.reasoning === undefined ? {} : { thinking: model.reasoning }),
  };
}

/** One page of the list: `pageSize` (default 50, at most 1000) models from the offset `pageToken` names. */
export function pageGeminiModels(
  models: readonly GeminiListedModel[],
  query: { pageSize?: unknown; pageToken?: unknown },
): { models: GeminiModelObject[]; nextPageToken?: string } {
  const served = models.filter((model) => geminiGenerationMethods(model.kind).length > 0);
  const size = Math.min(1000, Math.max(1, Number.parseInt(String(query.pageSize ?? '50'), 10) || 50));
  const offset = Math.max(0, Number.parseInt(String(query.pageToken ?? '0'), 10) || 0);
  const page = served.slice(offset, offset + size).map(toGeminiModelObject);
  return offset + size < served.length ? { models: page, nextPageToken: String(offset + size) } : { models: page };
}
