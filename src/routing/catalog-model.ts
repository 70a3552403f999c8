/** What kind of endpoint a model serves. */
/** `any` marks a model the catalog does not know: the vendor decides which endpoints it serves. */
export type ModelKind = 'chat' | 'completion' | 'embedding' | 'image' | 'audio' | 'video' | 'any';

/** Input a model accepts besides text. */
export type InputModality = 'text' | 'image' | 'audio';

/** One model the gateway knows about, from the built-in catalog or an operator's override. */
export interface CatalogModel {
  /** the id clients put in `model` */
  id: string;
  /** vendor label shown as `owned_by` */
  ownedBy: string;
  kind: ModelKind;
  /** release time, Unix seconds, shown as `created` */
  created: number;
  /** context window in tokens, when known */
  contextWindow?: number;
  /** most output tokens per request, when known */
  maxOutputTokens?: number;
  /** input kinds accepted; image parts are refused for models without `image` */
  inputModalities: InputModality[];
  /** `<width>x<height>` sizes an image model accepts; absent means any size the vendor accepts */
  imageSizes?: string[];
  /** true when the image model supports /v1/images/edits */
  supportsImageEdits?: boolean;
}
