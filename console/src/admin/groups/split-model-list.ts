/** Reads a typed list of model ids (commas, spaces or new lines between them) without blanks or repeats. */
export function splitModelList(text: string): string[] {
  return [...new Set(text.split(/[\s,]+/).map((model) => model.trim()).filter((model) => model !== ''))];
}
