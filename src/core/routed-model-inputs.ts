/** What a client protocol's input checks read of the routed catalog model (routing's CatalogModel fits it). */
export interface RoutedModelInputs {
  /** the public model id, named in the refusal */
  id: string;
  /** the kinds of input the model reads (`text`, `image`, `audio`) */
  inputModalities: readonly string[];
}
