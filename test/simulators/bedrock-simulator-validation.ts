// Validates a Converse request body the way Bedrock does, so a translation bug fails a test with a 400.
import { validationError } from './bedrock-simulator-errors.js';
import { detectImageFormat } from './detect-image-format.js';

/** A content block as received (unchecked JSON). */
export type ReceivedBlock = Record<string, unknown>;

/** A turn as received, after validation. */
export interface ReceivedMessage {
  role: 'user' | 'assistant';
  content: ReceivedBlock[];
}

/** The parts of a valid Converse body the simulator's model reads. */
export interface ValidConverseRequest {
  messages: ReceivedMessage[];
  /** system texts in order */
  system: string[];
  /** the system blocks as received, cache checkpoints included */
  rawSystem: ReceivedBlock[];
  /** the tools as received, cache checkpoints included */
  rawTools: ReceivedBlock[];
  maxTokens: number | undefined;
  stopSequences: string[];
  /** tool names, in declaration order */
  toolNames: string[];
  /** `auto`, `any`, or the forced tool's name */
  toolChoice: { kind: 'auto' } | { kind: 'any' } | { kind: 'tool'; name: string };
  /** true when `outputConfig.textFormat` holds the answer to a JSON schema */
  jsonOutput: boolean;
}

const topLevelFields = new Set([
  'messages',
  'system',
  'inferenceConfig',
  'toolConfig',
  'guardrailConfig',
  'additionalModelRequestFields',
  'additionalModelResponseFieldPaths',
  'promptVariables',
  'requestMetadata',
  'performanceConfig',
  'outputConfig',
]);
const inferenceFields = new Set(['maxTokens', 'temperature', 'topP', 'stopSequences']);
const blockKinds = new Set([
  'text',
  'image',
  'document',
  'video',
  'toolUse',
  'toolResult',
  'guardContent',
  'reasoningContent',
  'cachePoint',
]);
const imageFormats = new Set(['png', 'jpeg', 'gif', 'webp']);
const toolNamePattern = /^[a-zA-Z0-9_-]{1,64}$/;
const base64Pattern = /^[A-Za-z0-9+/]+={0,2}$/;

/** Checks the body; throws a 400 ValidationException naming the first problem. */
export function validateConverseRequest(body: unknown): ValidConverseRequest {
  if (!isObject(body)) throw validationError('Malformed input request, please reformat your input and try again.');
  for (const field of Object.keys(body)) {
    if (!topLevelFields.has(field))
      throw validationError(
        `Malformed input request: extraneous key [${field}] is not permitted, please reformat your input and try again.`,
      );
  }
  const messages = validateMessages(body.messages);
  const toolConfig = validateToolConfig(body.toolConfig);
  const usesTools = messages.some((message) =>
    message.content.some((block) => 'toolUse' in block || 'toolResult' in block),
  );
  if (usesTools && !toolConfig)
    throw validationError('The toolConfig field must be defined when using toolUse and toolResult content blocks.');
  const inference = validateInferenceConfig(body.inferenceConfig);
  return {
    messages,
    system: validateSystem(body.system),
    rawSystem: Array.isArray(body.system) ? (body.system as ReceivedBlock[]) : [],
    rawTools: toolConfig ? (body.toolConfig as { tools: ReceivedBlock[] }).tools : [],
    ...inference,
    toolNames: toolConfig?.toolNames ?? [],
    toolChoice: toolConfig?.toolChoice ?? { kind: 'auto' },
    jsonOutput: validateOutputConfig(body.outputConfig),
  };
}

/** `outputConfig.textFormat`: type `json_schema` with `structure.jsonSchema.schema` a JSON object given as a string. */
function validateOutputConfig(value: unknown): boolean {
  if (value === undefined) return false;
  const textFormat = isObject(value) ? value.textFormat : undefined;
  if (!isObject(textFormat) || textFormat.type !== 'json_schema')
    throw validationError('outputConfig.textFormat.type must be json_schema.');
  const structure = isObject(textFormat.structure) ? textFormat.structure : undefined;
  const jsonSchema = structure && isObject(structure.jsonSchema) ? structure.jsonSchema : undefined;
  if (!jsonSchema || typeof jsonSchema.schema !== 'string')
    throw validationError('outputConfig.textFormat.structure.jsonSchema.schema must be a string.');
  let parsed: unknown;
  try {
    parsed = JSON.parse(jsonSchema.schema);
  } catch {
    throw validationError('outputConfig.textFormat.structure.jsonSchema.schema is not valid JSON.');
  }
  if (!isObject(parsed))
    throw validationError('outputConfig.textFormat.structure.jsonSchema.schema must be an object.');
  return true;
}

function validateMessages(value: unknown): ReceivedMessage[] {
  if (!Array.isArray(value) || value.length === 0)
    throw validationError(
      'A conversation must start with a user message. Try again with a conversation that starts with a user message.',
    );
  const messages = value.map((message, index) => validateMessage(message, index));
  messages.forEach((message, index) => {
    const expectedRole = index % 2 === 0 ? 'user' : 'assistant';
    if (index === 0 && message.role !== 'user') {
      throw validationError(
        'A conversation must start with a user message. Try again with a conversation that starts with a user message.',
      );
    }
    if (message.role !== expectedRole) {
      throw validationError(
        'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.',
      );
    }
    checkToolPairing(messages, index);
  });
  return messages;
}

function validateMessage(value: unknown, index: number): ReceivedMessage {
  if (!isObject(value)) throw validationError(`messages.${index} must be an object.`);
  for (const field of Object.keys(value)) {
    if (field !== 'role' && field !== 'content')
      throw validationError(
        `Malformed input request: extraneous key [${field}] is not permitted at messages.${index}.`,
      );
  }
  if (value.role !== 'user' && value.role !== 'assistant')
    throw validationError(`messages.${index}.role must be user or assistant.`);
  if (!Array.isArray(value.content) || value.content.length === 0)
    throw validationError(
      `The content field in the Message object at messages.${index} is empty. Add a ContentBlock object to the content field and try again.`,
    );
  const content = value.content.map((block, blockIndex) =>
    validateBlock(block, `messages.${index}.content.${blockIndex}`, value.role as string),
  );
  return { role: value.role, content };
}

function validateBlock(value: unknown, path: string, role: string): ReceivedBlock {
  if (!isObject(value)) throw validationError(`${path} must be an object.`);
  const kinds = Object.keys(value);
  if (kinds.length !== 1 || !blockKinds.has(kinds[0] ?? ''))
    throw validationError(`The ContentBlock at ${path} must set exactly one member, got [${kinds.join(', ')}].`);
  if ('text' in value && (typeof value.text !== 'string' || !value.text.trim())) {
    throw validationError(
      `The text field in the ContentBlock object at ${path} is blank. Add text to the text field, and try again.`,
    );
  }
  if ('image' in value) validateImage(value.image, path, role);
  if ('toolUse' in value) {
    const toolUse = value.toolUse;
    if (role !== 'assistant') throw validationError(`toolUse at ${path} is only allowed in assistant messages.`);
    if (
      !isObject(toolUse) ||
      typeof toolUse.toolUseId !== 'string' ||
      typeof toolUse.name !== 'string' ||
      !('input' in toolUse)
    ) {
      throw validationError(`toolUse at ${path} needs toolUseId, name and input.`);
    }
  }
  if ('toolResult' in value) {
    const toolResult = value.toolResult;
    if (role !== 'user') throw validationError(`toolResult at ${path} is only allowed in user messages.`);
    if (!isObject(toolResult) || typeof toolResult.toolUseId !== 'string' || !Array.isArray(toolResult.content)) {
      throw validationError(`toolResult at ${path} needs toolUseId and content.`);
    }
    for (const part of toolResult.content) {
      if (
        !isObject(part) ||
        Object.keys(part).length !== 1 ||
        !(typeof part.text === 'string' || isObject(part.json))
      ) {
        throw validationError(`toolResult content at ${path} must be {text} or {json: object} blocks.`);
      }
    }
  }
  return value;
}

function validateImage(image: unknown, path: string, role: string): void {
  if (role !== 'user') throw validationError(`image at ${path} is only allowed in user messages.`);
  const source = isObject(image) ? image.source : undefined;
  const bytes = isObject(source) ? source.bytes : undefined;
  if (
    !isObject(image) ||
    !imageFormats.has(String(image.format)) ||
    typeof bytes !== 'string' ||
    !base64Pattern.test(bytes)
  ) {
    throw validationError(`The image at ${path} needs a format of png, jpeg, gif or webp and base64 source.bytes.`);
  }
  // Bedrock decodes the bytes: anything but an image of the stated format is refused.
  if (detectImageFormat(Buffer.from(bytes, 'base64')) !== image.format)
    throw validationError(
      `The image at ${path} could not be processed: its bytes are not a ${String(image.format)} image.`,
    );
}

/** A toolResult must answer a toolUse of the assistant turn just before it, and every toolUse must be answered in the next turn. */
function checkToolPairing(messages: ReceivedMessage[], index: number): void {
  const message = messages[index] as ReceivedMessage;
  const idsOf = (turn: ReceivedMessage | undefined, kind: 'toolUse' | 'toolResult') =>
    (turn?.content ?? []).flatMap((block) =>
      isObject(block[kind]) ? [String((block[kind] as { toolUseId: unknown }).toolUseId)] : [],
    );
  if (message.role === 'user') {
    const offered = new Set(idsOf(messages[index - 1], 'toolUse'));
    for (const id of idsOf(message, 'toolResult')) {
      if (!offered.has(id))
        throw validationError(
          `The toolResult with toolUseId ${id} at messages.${index} does not match a toolUse in the previous assistant message.`,
        );
    }
  } else if (index + 1 < messages.length) {
    const answered = new Set(idsOf(messages[index + 1], 'toolResult'));
    for (const id of idsOf(message, 'toolUse')) {
      if (!answered.has(id))
        throw validationError(
          `The toolUse with toolUseId ${id} at messages.${index} must be followed by a matching toolResult in the next user message.`,
        );
    }
  }
}

function validateSystem(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw validationError('system must be a list of SystemContentBlock objects.');
  return value.flatMap((block, index) => {
    if (isCachePoint(block)) return [];
    if (!isObject(block) || typeof block.text !== 'string' || !block.text.trim() || Object.keys(block).length !== 1) {
      throw validationError(
        `The text field in the SystemContentBlock object at system.${index} is blank or malformed.`,
      );
    }
    return [block.text];
  });
}

function validateInferenceConfig(value: unknown): { maxTokens: number | undefined; stopSequences: string[] } {
  if (value === undefined) return { maxTokens: undefined, stopSequences: [] };
  if (!isObject(value)) throw validationError('inferenceConfig must be an object.');
  for (const field of Object.keys(value)) {
    if (!inferenceFields.has(field))
      throw validationError(`Malformed input request: extraneous key [${field}] is not permitted in inferenceConfig.`);
  }
  const { maxTokens, temperature, topP, stopSequences } = value;
  if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || (maxTokens as number) < 1)) {
    throw validationError(
      "1 validation error detected: Value at 'inferenceConfig.maxTokens' failed to satisfy constraint: Member must have value greater than or equal to 1",
    );
  }
  if (temperature !== undefined && (typeof temperature !== 'number' || temperature < 0 || temperature > 1)) {
    throw validationError(
      "1 validation error detected: Value at 'inferenceConfig.temperature' failed to satisfy constraint: Member must have value less than or equal to 1",
    );
  }
  if (topP !== undefined && (typeof topP !== 'number' || topP < 0 || topP > 1)) {
    throw validationError(
      "1 validation error detected: Value at 'inferenceConfig.topP' failed to satisfy constraint: Member must have value less than or equal to 1",
    );
  }
  if (
    stopSequences !== undefined &&
    (!Array.isArray(stopSequences) || stopSequences.some((sequence) => typeof sequence !== 'string'))
  ) {
    throw validationError('inferenceConfig.stopSequences must be a list of strings.');
  }
  return { maxTokens: maxTokens as number | undefined, stopSequences: (stopSequences as string[] | undefined) ?? [] };
}

function validateToolConfig(
  value: unknown,
): { toolNames: string[]; toolChoice: ValidConverseRequest['toolChoice'] } | undefined {
  if (value === undefined) return undefined;
  if (!isObject(value) || !Array.isArray(value.tools) || value.tools.length === 0)
    throw validationError('toolConfig.tools must be a non-empty list.');
  for (const field of Object.keys(value)) {
    if (field !== 'tools' && field !== 'toolChoice')
      throw validationError(`Malformed input request: extraneous key [${field}] is not permitted in toolConfig.`);
  }
  if (value.tools.every(isCachePoint)) throw validationError('toolConfig.tools must declare at least one toolSpec.');
  const toolNames = value.tools.flatMap((tool, index) => {
    if (isCachePoint(tool)) return [];
    const specification = isObject(tool) ? tool.toolSpec : undefined;
    if (
      !isObject(specification) ||
      typeof specification.name !== 'string' ||
      !toolNamePattern.test(specification.name)
    ) {
      throw validationError(`toolConfig.tools.${index}.toolSpec.name must match [a-zA-Z0-9_-]{1,64}.`);
    }
    const schema = isObject(specification.inputSchema) ? specification.inputSchema.json : undefined;
    if (!isObject(schema))
      throw validationError(`toolConfig.tools.${index}.toolSpec.inputSchema.json must be a JSON schema object.`);
    return [specification.name];
  });
  return { toolNames, toolChoice: validateToolChoice(value.toolChoice, toolNames) };
}

function validateToolChoice(value: unknown, toolNames: string[]): ValidConverseRequest['toolChoice'] {
  if (value === undefined) return { kind: 'auto' };
  if (!isObject(value) || Object.keys(value).length !== 1)
    throw validationError('toolConfig.toolChoice must set exactly one of auto, any, tool.');
  if (isObject(value.auto)) return { kind: 'auto' };
  if (isObject(value.any)) return { kind: 'any' };
  const name = isObject(value.tool) ? value.tool.name : undefined;
  if (typeof name !== 'string' || !toolNames.includes(name))
    throw validationError('toolConfig.toolChoice.tool.name must name a declared tool.');
  return { kind: 'tool', name };
}

/** A `{cachePoint: …}` block (its placement and type are checked with the prompt cache). */
function isCachePoint(value: unknown): boolean {
  return isObject(value) && Object.keys(value).length === 1 && 'cachePoint' in value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
