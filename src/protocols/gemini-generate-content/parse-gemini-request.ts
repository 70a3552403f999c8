import type {
  CanonicalAssistantContent,
  CanonicalMessage,
  CanonicalOutputFormat,
  CanonicalReasoningEffort,
  CanonicalRequest,
  CanonicalTool,
  CanonicalToolChoice,
  CanonicalToolResultPart,
  CanonicalUserContent,
} from '../../core/canonical/canonical-request.js';
import { effortForThinkingBudget } from '../../core/canonical/reasoning-effort-budgets.js';
import type { VendorArtefact } from '../../core/canonical/vendor-artefact.js';
import { GatewayError } from '../../core/gateway-error.js';
import type { SealedArtefact } from '../shared/reasoning-sealer.js';
import { validateProtocolBody } from '../shared/validate-protocol-body.js';
import {
  functionCallingConfigFields,
  generateContentFields,
  generateContentRequestSchema,
  generationConfigFields,
  ignoredGenerateContentFields,
  thinkingConfigFields,
  toolConfigFields,
  type GenerateContentRequestBody,
  type GeminiRequestContent,
  type GeminiRequestPart,
} from './gemini-request-schema.js';
import { geminiSchemaToJsonSchema } from './gemini-schema-to-json-schema.js';
import { GeminiToolCallIds } from './gemini-tool-call-ids.js';

/** The producer name Gemini channels give their `thoughtSignature` artefacts (the Gemini adapter's). */
export const geminiArtefactProducer = 'gemini';

/** A generateContent request in the gateway's terms. */
export interface ParsedGeminiRequest {
  request: CanonicalRequest;
  /** whether the answer shows thought text (`thinkingConfig.includeThoughts`); signatures are always given */
  includeThoughts: boolean;
  /** top-level members accepted but not translated (`model`, which the path gives), for the request log */
  ignoredFields: string[];
}

/** Options of the parse. */
export interface ParseGeminiOptions {
  /** the model id from the path */
  modelId: string;
  stream: boolean;
  /** opens a `thoughtSignature` the gateway sealed; null for any other (then it is Gemini's own) */
  unsealArtefact: (sealed: string) => SealedArtefact | null;
  /** true when a functionResponse may answer no earlier call (countTokens of part of a conversation) */
  orphanResponsesAllowed?: boolean;
}

/**
 * Validates a generateContent body and maps it to the canonical request. What no vendor behind the gateway can honour
 * (other tool kinds, several candidates, code execution parts, Vertex's `labels`, unknown members at any level the
 * gateway reads) is a 400 naming its field. `safetySettings` rides in the request's Gemini extras: only Gemini
 * channels may serve it (geminiChannelFilter).
 */
export function parseGeminiRequest(body: unknown, options: ParseGeminiOptions): ParsedGeminiRequest {
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new GatewayError('invalid_request_error', 'The request body must be a JSON object.');
  const fields = body as Record<string, unknown>;
  if (fields.labels !== undefined)
    refuse(
      'labels',
      "'labels' (billing labels of Vertex AI) is not supported: the Gemini API has no labels, so no channel honours them.",
    );
  refuseUnknownMembers(
    fields,
    '',
    (field) => generateContentFields.has(field) || ignoredGenerateContentFields.has(field),
  );
  const parsed = validateProtocolBody(generateContentRequestSchema, fields);
  const config = parsed.generationConfig ?? {};
  refuseUnknownMembers(config, 'generationConfig.', (field) => generationConfigFields.has(field));
  refuseUnknownMembers(config.thinkingConfig, 'generationConfig.thinkingConfig.', (field) =>
    thinkingConfigFields.has(field),
  );
  refuseUnknownMembers(parsed.toolConfig, 'toolConfig.', (field) => toolConfigFields.has(field));
  refuseUnknownMembers(parsed.toolConfig?.functionCallingConfig, 'toolConfig.functionCallingConfig.', (field) =>
    functionCallingConfigFields.has(field),
  );
  if (config.candidateCount !== undefined && config.candidateCount > 1)
    refuse('generationConfig.candidateCount', 'Only one candidate is served: set candidateCount to 1.');
  if (config.responseModalities?.some((modality) => modality.toUpperCase() !== 'TEXT'))
    refuse('generationConfig.responseModalities', 'Only TEXT responses are served.');
  const tools = toolsOf(parsed);
  return {
    request: {
      model: options.modelId,
      instructions: instructionsOf(parsed),
      messages: messagesOf(parsed.contents, options),
      tools: tools.tools,
      toolChoice: tools.toolChoice,
      parallelToolCalls: null,
      outputFormat: outputFormatOf(parsed),
      reasoningEffort: reasoningEffortOf(parsed),
      reasoningOptional: true,
      ...thinkingBudgetOf(parsed),
      maxOutputTokens: config.maxOutputTokens ?? null,
      sampling: {
        temperature: config.temperature ?? null,
        topP: config.topP ?? null,
        ...(config.topK === undefined ? {} : { topK: config.topK }),
        ...(config.stopSequences === undefined ? {} : { stopSequences: config.stopSequences }),
        ...(config.seed === undefined ? {} : { seed: config.seed }),
        ...(config.presencePenalty === undefined ? {} : { presencePenalty: config.presencePenalty }),
        ...(config.frequencyPenalty === undefined ? {} : { frequencyPenalty: config.frequencyPenalty }),
      },
      metadata: null,
      ...geminiExtrasOf(parsed),
      stream: options.stream,
    },
    includeThoughts: config.thinkingConfig?.includeThoughts === true,
    ignoredFields: Object.keys(fields).filter((field) => ignoredGenerateContentFields.has(field)),
  };
}

/** A 400 naming the first member of `object` that `isKnown` does not accept, by its path (`prefix` + name). */
function refuseUnknownMembers(
  object: Readonly<Record<string, unknown>> | undefined,
  prefix: string,
  isKnown: (field: string) => boolean,
): void {
  for (const field of Object.keys(object ?? {})) {
    if (!isKnown(field)) refuse(`${prefix}${field}`, `'${prefix}${field}' is not supported by this gateway.`);
  }
}

/** `safetySettings` for Gemini channels as sent; an empty list asks for Google's defaults, as no list does. */
function geminiExtrasOf(parsed: GenerateContentRequestBody): Pick<CanonicalRequest, 'vendorExtras'> {
  const safetySettings = parsed.safetySettings;
  if (!safetySettings || safetySettings.length === 0) return {};
  return { vendorExtras: { gemini: { safetySettings } } };
}

function refuse(param: string, message: string): never {
  throw new GatewayError('invalid_request_error', message, { param });
}

function instructionsOf(parsed: GenerateContentRequestBody): string | null {
  const parts = parsed.systemInstruction?.parts ?? [];
  const texts = parts.map((part, index) => {
    if (part.text === undefined)
      refuse(`systemInstruction.parts[${index}]`, 'A system instruction holds text parts only.');
    return part.text;
  });
  return texts.length > 0 ? texts.join('\n') : null;
}

/** The conversation: model turns become assistant messages, user turns tool results and user messages. */
function messagesOf(contents: readonly GeminiRequestContent[], options: ParseGeminiOptions): CanonicalMessage[] {
  const { unsealArtefact } = options;
  const callIds = new GeminiToolCallIds(options.orphanResponsesAllowed === true);
  const messages: CanonicalMessage[] = [];
  contents.forEach((content, contentIndex) => {
    const param = `contents[${contentIndex}]`;
    if (content.role === 'model') {
      const parts = joinStreamedReasoning(
        content.parts.flatMap((part, partIndex) => modelParts(part, contentIndex, partIndex, callIds, unsealArtefact)),
      );
      if (parts.length > 0) messages.push({ role: 'assistant', content: parts });
      return;
    }
    const results: CanonicalToolResultPart[] = [];
    const userContent: CanonicalUserContent[] = [];
    content.parts.forEach((part, partIndex) => {
      const partParam = `${param}.parts[${partIndex}]`;
      if (part.functionResponse) {
        const { name, id, response } = part.functionResponse;
        const callId = callIds.responseCallId(name, id, `${partParam}.functionResponse`);
        results.push({ type: 'tool-result', callId, output: JSON.stringify(response ?? {}) });
      } else userContent.push(userPart(part, partParam));
    });
    if (results.length > 0) messages.push({ role: 'tool', content: results });
    if (userContent.length > 0) messages.push({ role: 'user', content: userContent });
  });
  return messages;
}

/**
 * Thought parts in a row are one reasoning block: a stream sends its text in pieces and its signature last, on a part
 * of its own; the signature (checked against the whole text by the vendor) then belongs to the joined text.
 */
function joinStreamedReasoning(parts: CanonicalAssistantContent[]): CanonicalAssistantContent[] {
  const joined: CanonicalAssistantContent[] = [];
  for (const part of parts) {
    const previous = joined.at(-1);
    if (part.type === 'reasoning' && previous?.type === 'reasoning' && previous.artefact === undefined) {
      joined[joined.length - 1] = { ...part, text: previous.text + part.text };
    } else joined.push(part);
  }
  return joined;
}

function modelParts(
  part: GeminiRequestPart,
  contentIndex: number,
  partIndex: number,
  callIds: GeminiToolCallIds,
  unsealArtefact: ParseGeminiOptions['unsealArtefact'],
): CanonicalAssistantContent[] {
  const param = `contents[${contentIndex}].parts[${partIndex}]`;
  const artefact = part.thoughtSignature === undefined ? undefined : artefactOf(part.thoughtSignature, unsealArtefact);
  if (part.functionCall) {
    const { name, id, args } = part.functionCall;
    return [
      {
        type: 'tool-call',
        callId: callIds.callId(name, id, contentIndex, partIndex),
        name,
        arguments: JSON.stringify(args ?? {}),
        ...(artefact ? { artefact } : {}),
      },
    ];
  }
  if (part.text !== undefined) {
    if (part.thought === true) return [{ type: 'reasoning', text: part.text, ...(artefact ? { artefact } : {}) }];
    // Gemini 3 signs a text part when the turn has no function call: the signature goes back as empty reasoning.
    const signature: CanonicalAssistantContent[] = artefact ? [{ type: 'reasoning', text: '', artefact }] : [];
    return [...signature, { type: 'text', text: part.text }];
  }
  if (artefact && Object.keys(part).length === 1) return [{ type: 'reasoning', text: '', artefact }];
  return refuse(param, 'A model turn may hold text, thought and functionCall parts only.');
}

/** A `thoughtSignature`: what the gateway sealed (another vendor's artefact), else Gemini's own, kept as it came. */
function artefactOf(signature: string, unsealArtefact: ParseGeminiOptions['unsealArtefact']): VendorArtefact {
  return unsealArtefact(signature)?.artefact ?? { producer: geminiArtefactProducer, signature };
}

function userPart(part: GeminiRequestPart, param: string): CanonicalUserContent {
  if (part.text !== undefined) return { type: 'text', text: part.text };
  if (part.inlineData) {
    const { mimeType, data } = part.inlineData;
    const url = `data:${mimeType};base64,${data}`;
    return mimeType.startsWith('image/') ? { type: 'image', url } : { type: 'file', data: url };
  }
  if (part.fileData) {
    const { mimeType, fileUri } = part.fileData;
    return mimeType?.startsWith('image/') === true ? { type: 'image', url: fileUri } : { type: 'file', url: fileUri };
  }
  if (part.functionCall) return refuse(`${param}.functionCall`, "A functionCall part belongs in a 'model' turn.");
  return refuse(param, 'A user turn may hold text, inlineData, fileData and functionResponse parts only.');
}

function toolsOf(parsed: GenerateContentRequestBody): {
  tools: CanonicalTool[];
  toolChoice: CanonicalToolChoice | null;
} {
  const tools: CanonicalTool[] = [];
  (parsed.tools ?? []).forEach((tool, toolIndex) => {
    for (const member of Object.keys(tool)) {
      if (member !== 'functionDeclarations')
        refuse(
          `tools[${toolIndex}].${member}`,
          `The '${member}' tool is not served by this gateway; declare functions.`,
        );
    }
    (tool.functionDeclarations ?? []).forEach((declaration, index) => {
      const param = `tools[${toolIndex}].functionDeclarations[${index}]`;
      for (const member of Object.keys(declaration)) {
        if (!['name', 'description', 'parameters', 'parametersJsonSchema'].includes(member))
          refuse(`${param}.${member}`, `'${member}' on a function declaration is not supported by this gateway.`);
      }
      const parameters =
        declaration.parametersJsonSchema ??
        (declaration.parameters ? geminiSchemaToJsonSchema(declaration.parameters) : null);
      tools.push({
        name: declaration.name,
        ...(declaration.description === undefined ? {} : { description: declaration.description }),
        parameters,
        strict: null,
      });
    });
  });
  const config = parsed.toolConfig?.functionCallingConfig;
  const allowed = config?.allowedFunctionNames;
  const mode = config?.mode;
  switch (mode) {
    case undefined:
    case 'AUTO':
    case 'MODE_UNSPECIFIED':
      if (allowed)
        refuse('toolConfig.functionCallingConfig.allowedFunctionNames', 'allowedFunctionNames needs mode ANY.');
      return { tools, toolChoice: mode === 'AUTO' ? { type: 'auto' } : null };
    case 'NONE':
      return { tools, toolChoice: { type: 'none' } };
    case 'ANY': {
      if (!allowed || allowed.length === 0) return { tools, toolChoice: { type: 'required' } };
      const unknown = allowed.find((name) => !tools.some((tool) => tool.name === name));
      if (unknown)
        refuse('toolConfig.functionCallingConfig.allowedFunctionNames', `No function is declared as '${unknown}'.`);
      // Several allowed names: the model may call only those, so only those are offered and one must be called.
      const offered = tools.filter((tool) => allowed.includes(tool.name));
      const [only] = allowed;
      return allowed.length === 1 && only !== undefined
        ? { tools, toolChoice: { type: 'tool', name: only } }
        : { tools: offered, toolChoice: { type: 'required' } };
    }
    case 'VALIDATED':
      return refuse('toolConfig.functionCallingConfig.mode', 'Mode VALIDATED is not supported by this gateway.');
    default: {
      const unreachable: never = mode;
      throw new Error(`Unhandled function calling mode ${String(unreachable)}`);
    }
  }
}

function outputFormatOf(parsed: GenerateContentRequestBody): CanonicalOutputFormat {
  const config = parsed.generationConfig ?? {};
  const mimeType = config.responseMimeType;
  const schema =
    config.responseJsonSchema ?? (config.responseSchema ? geminiSchemaToJsonSchema(config.responseSchema) : undefined);
  if (mimeType === undefined || mimeType === 'text/plain') {
    if (schema)
      refuse('generationConfig.responseMimeType', "A response schema needs responseMimeType 'application/json'.");
    return { type: 'text' };
  }
  if (mimeType !== 'application/json')
    refuse(
      'generationConfig.responseMimeType',
      `responseMimeType '${mimeType}' is not supported: use application/json.`,
    );
  return schema ? { type: 'json-schema', name: 'response', schema, strict: null } : { type: 'json-object' };
}

const effortByLevel: Record<string, CanonicalReasoningEffort> = {
  MINIMAL: 'minimal',
  LOW: 'low',
  MEDIUM: 'medium',
  HIGH: 'high',
};

/** A budget above 0 as the client gave it, for the vendors that take budgets (0 and -1 are efforts: none, default). */
function thinkingBudgetOf(parsed: GenerateContentRequestBody): Pick<CanonicalRequest, 'thinkingBudgetTokens'> {
  const budget = parsed.generationConfig?.thinkingConfig?.thinkingBudget;
  return budget === undefined || budget <= 0 ? {} : { thinkingBudgetTokens: budget };
}

/** thinkingLevel as the effort of that name; thinkingBudget 0 as none, -1 (dynamic) as the vendor's default. */
function reasoningEffortOf(parsed: GenerateContentRequestBody): CanonicalReasoningEffort | null {
  const thinking = parsed.generationConfig?.thinkingConfig;
  if (!thinking) return null;
  if (thinking.thinkingLevel !== undefined && thinking.thinkingBudget !== undefined)
    refuse('generationConfig.thinkingConfig', 'Set thinkingLevel or thinkingBudget, not both.');
  if (thinking.thinkingLevel !== undefined) return effortByLevel[thinking.thinkingLevel] ?? null;
  if (thinking.thinkingBudget === undefined || thinking.thinkingBudget === -1) return null;
  return thinking.thinkingBudget === 0 ? 'none' : effortForThinkingBudget(thinking.thinkingBudget);
}
