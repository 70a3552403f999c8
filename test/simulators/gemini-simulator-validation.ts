// Checks a generateContent request the way the Gemini API does (camelCase fields only, roles user/model,
// one data field per part, functionResponse turns answering the previous functionCall turn).
import { detectImageFormat } from './detect-image-format.js';
import { geminiInvalidArgument } from './gemini-simulator-errors.js';

/** A part, loosely typed. */
export type GeminiSimulatorPart = Record<string, unknown>;

/** A validated content. */
export interface GeminiSimulatorContent {
  role: 'user' | 'model';
  parts: GeminiSimulatorPart[];
}

/** A validated request. */
export interface GeminiSimulatorRequest {
  contents: GeminiSimulatorContent[];
  systemText: string;
  functionNames: string[];
  /** AUTO (default), ANY or NONE */
  mode: string;
  allowedFunctionNames: string[] | undefined;
  generationConfig: Record<string, unknown>;
}

const topLevelFields = new Set([
  'contents',
  'systemInstruction',
  'tools',
  'toolConfig',
  'generationConfig',
  'safetySettings',
  'cachedContent',
  'labels',
  'serviceTier',
  'store',
]);
const generationConfigFields = new Set([
  'temperature',
  'topP',
  'topK',
  'candidateCount',
  'maxOutputTokens',
  'stopSequences',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
  'responseLogprobs',
  'logprobs',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'responseModalities',
  'thinkingConfig',
  'speechConfig',
  'imageConfig',
  'mediaResolution',
]);
const dataFields = [
  'text',
  'inlineData',
  'fileData',
  'functionCall',
  'functionResponse',
  'executableCode',
  'codeExecutionResult',
];
const partFields = new Set([...dataFields, 'thought', 'thoughtSignature', 'videoMetadata']);

/** Validates the body; `expectedSignature` names the thoughtSignature a thinking model issued for a function. */
export function validateGeminiRequest(
  body: unknown,
  expectedSignature: ((name: string) => string) | undefined,
): GeminiSimulatorRequest {
  if (!body || typeof body !== 'object' || Array.isArray(body))
    throw geminiInvalidArgument('Invalid JSON payload received.');
  const raw = body as Record<string, unknown>;
  for (const field of Object.keys(raw)) {
    if (!topLevelFields.has(field))
      throw geminiInvalidArgument(`Invalid JSON payload received. Unknown name "${field}": Cannot find field.`);
  }
  const generationConfig = (raw.generationConfig ?? {}) as Record<string, unknown>;
  for (const field of Object.keys(generationConfig)) {
    if (!generationConfigFields.has(field))
      throw geminiInvalidArgument(
        `Invalid JSON payload received. Unknown name "${field}" at 'generation_config': Cannot find field.`,
      );
  }
  // Gemini holds JSON to a schema only in JSON mode.
  if (
    (generationConfig.responseJsonSchema !== undefined || generationConfig.responseSchema !== undefined) &&
    generationConfig.responseMimeType !== 'application/json'
  )
    throw geminiInvalidArgument('responseMimeType must be application/json when a response schema is set.');
  const candidateCount = generationConfig.candidateCount;
  if (candidateCount !== undefined && (typeof candidateCount !== 'number' || candidateCount < 1 || candidateCount > 8))
    throw geminiInvalidArgument('candidateCount must be between 1 and 8.');
  const contents = validateContents(raw.contents, expectedSignature);
  const functionNames = validateTools(raw.tools);
  const config = ((raw.toolConfig as { functionCallingConfig?: Record<string, unknown> } | undefined)
    ?.functionCallingConfig ?? {}) as { mode?: unknown; allowedFunctionNames?: unknown };
  const mode = config.mode === undefined ? 'AUTO' : String(config.mode);
  if (!['AUTO', 'ANY', 'NONE', 'VALIDATED'].includes(mode))
    throw geminiInvalidArgument(`Invalid value at 'tool_config.function_calling_config.mode' (${mode})`);
  const allowed = Array.isArray(config.allowedFunctionNames) ? config.allowedFunctionNames.map(String) : undefined;
  if (allowed && mode !== 'ANY')
    throw geminiInvalidArgument('allowed_function_names may only be set when mode is ANY.');
  const systemParts = ((raw.systemInstruction as { parts?: unknown } | undefined)?.parts ??
    []) as GeminiSimulatorPart[];
  return {
    contents,
    systemText: systemParts.map((part) => String(part.text ?? '')).join(' '),
    functionNames,
    mode,
    allowedFunctionNames: allowed,
    generationConfig,
  };
}

function validateContents(
  value: unknown,
  expectedSignature: ((name: string) => string) | undefined,
): GeminiSimulatorContent[] {
  if (!Array.isArray(value) || value.length === 0)
    throw geminiInvalidArgument('* GenerateContentRequest.contents: contents is not specified');
  const contents = value.map((content: unknown, index): GeminiSimulatorContent => {
    const fields = (content ?? {}) as { role?: unknown; parts?: unknown };
    if (fields.role !== 'user' && fields.role !== 'model')
      throw geminiInvalidArgument(`Please use a valid role: user, model. (contents[${index}].role)`);
    if (!Array.isArray(fields.parts) || fields.parts.length === 0)
      throw geminiInvalidArgument(
        `* GenerateContentRequest.contents[${index}].parts: contents.parts must not be empty.`,
      );
    fields.parts.forEach((part: unknown, partIndex) => validatePart(part, `contents[${index}].parts[${partIndex}]`));
    return { role: fields.role, parts: fields.parts as GeminiSimulatorPart[] };
  });
  contents.forEach((content, index) => {
    checkFunctionResponses(contents, index);
    if (expectedSignature && content.role === 'model') {
      for (const part of content.parts) {
        const call = part.functionCall as { name?: string } | undefined;
        if (call && part.thoughtSignature !== expectedSignature(String(call.name))) {
          throw geminiInvalidArgument(
            `Function call is missing a thought_signature in functionCall parts. (contents[${index}])`,
          );
        }
      }
    }
  });
  return contents;
}

function validatePart(part: unknown, path: string): void {
  if (!part || typeof part !== 'object') throw geminiInvalidArgument(`${path}: Part must be an object.`);
  const fields = part as Record<string, unknown>;
  for (const key of Object.keys(fields)) {
    if (!partFields.has(key))
      throw geminiInvalidArgument(
        `Invalid JSON payload received. Unknown name "${key}" at '${path}': Cannot find field.`,
      );
  }
  const present = dataFields.filter((field) => fields[field] !== undefined);
  if (present.length !== 1)
    throw geminiInvalidArgument(`${path}: exactly one data field must be set (found ${present.length}).`);
  const inline = fields.inlineData as { mimeType?: unknown; data?: unknown } | undefined;
  if (inline && (typeof inline.mimeType !== 'string' || typeof inline.data !== 'string'))
    throw geminiInvalidArgument(`${path}.inlineData: mimeType and data are required.`);
  if (inline) checkInlineImage(inline as { mimeType: string; data: string }, path);
  const file = fields.fileData as { mimeType?: unknown; fileUri?: unknown } | undefined;
  // mimeType is optional: Gemini knows the type of a file uploaded through its Files API.
  if (file && ((file.mimeType !== undefined && typeof file.mimeType !== 'string') || typeof file.fileUri !== 'string'))
    throw geminiInvalidArgument(`${path}.fileData: fileUri is required.`);
  const call = fields.functionCall as { name?: unknown; args?: unknown } | undefined;
  if (
    call &&
    (typeof call.name !== 'string' ||
      (call.args !== undefined && (typeof call.args !== 'object' || Array.isArray(call.args))))
  )
    throw geminiInvalidArgument(`${path}.functionCall: name is required and args must be an object.`);
  const response = fields.functionResponse as { name?: unknown; response?: unknown } | undefined;
  if (
    response &&
    (typeof response.name !== 'string' ||
      !response.response ||
      typeof response.response !== 'object' ||
      Array.isArray(response.response))
  ) {
    throw geminiInvalidArgument(`${path}.functionResponse: name is required and response must be an object.`);
  }
}

/** Gemini decodes inline images: data that is not base64 of an image of the stated type is refused. */
function checkInlineImage(inline: { mimeType: string; data: string }, path: string): void {
  const declared = /^image\/(png|jpeg|gif|webp)$/.exec(inline.mimeType.toLowerCase())?.[1];
  if (!declared) return;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(inline.data))
    throw geminiInvalidArgument(`Invalid value at '${path}.inline_data.data' (TYPE_BYTES), Base64 decoding failed.`);
  if (detectImageFormat(Buffer.from(inline.data, 'base64')) !== declared)
    throw geminiInvalidArgument(
      'Unable to process input image. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
    );
}

/** A turn of functionResponse parts must answer, name for name and count for count, the functionCall parts of the turn before. */
function checkFunctionResponses(contents: GeminiSimulatorContent[], index: number): void {
  const responses = (contents[index]?.parts ?? [])
    .filter((part) => part.functionResponse)
    .map((part) => String((part.functionResponse as { name: string }).name));
  if (responses.length === 0) return;
  const previous = contents[index - 1];
  const calls =
    previous?.role === 'model'
      ? previous.parts
          .filter((part) => part.functionCall)
          .map((part) => String((part.functionCall as { name: string }).name))
      : [];
  if (calls.length !== responses.length || [...calls].sort().join() !== [...responses].sort().join()) {
    throw geminiInvalidArgument(
      'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
    );
  }
}

function validateTools(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw geminiInvalidArgument("Invalid value at 'tools'");
  return value.flatMap((tool: unknown) => {
    const declarations = (tool as { functionDeclarations?: unknown }).functionDeclarations;
    if (!Array.isArray(declarations)) return [];
    return declarations.map((declaration: unknown) => {
      const fields = declaration as Record<string, unknown>;
      for (const key of Object.keys(fields)) {
        if (
          ![
            'name',
            'description',
            'parameters',
            'parametersJsonSchema',
            'response',
            'responseJsonSchema',
            'behavior',
          ].includes(key)
        ) {
          throw geminiInvalidArgument(
            `Invalid JSON payload received. Unknown name "${key}" at 'tools[0].function_declarations': Cannot find field.`,
          );
        }
      }
      if (typeof fields.name !== 'string')
        throw geminiInvalidArgument(
          '* GenerateContentRequest.tools[0].function_declarations.name: name cannot be empty.',
        );
      return fields.name;
    });
  });
}
