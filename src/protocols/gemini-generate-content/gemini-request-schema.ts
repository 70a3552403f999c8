import { z } from 'zod';

/** A JSON object of any members (function arguments and results, schemas). */
const jsonObjectSchema = z.record(z.string(), z.unknown());

/** One part of a content (Gemini's `Part`); each sets one data field, `thoughtSignature` may ride on any. */
export const geminiPartSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  inlineData: z.object({ mimeType: z.string().min(1), data: z.string() }).optional(),
  fileData: z.object({ mimeType: z.string().optional(), fileUri: z.string().min(1) }).optional(),
  functionCall: z
    .object({ name: z.string().min(1), args: jsonObjectSchema.optional(), id: z.string().min(1).optional() })
    .optional(),
  functionResponse: z
    .looseObject({ name: z.string().min(1), response: jsonObjectSchema.optional(), id: z.string().min(1).optional() })
    .optional(),
});

/** A part as the schema reads it. */
export type GeminiRequestPart = z.output<typeof geminiPartSchema>;

/** One turn (`Content`): the role is `user` or `model` (absent means user, as Google reads it). */
export const geminiContentSchema = z.object({
  role: z.enum(['user', 'model']).optional(),
  parts: z.array(geminiPartSchema),
});

/** A turn as the schema reads it. */
export type GeminiRequestContent = z.output<typeof geminiContentSchema>;

/** One function the model may call. */
const functionDeclarationSchema = z.looseObject({
  name: z.string().min(1),
  description: z.string().optional(),
  parameters: jsonObjectSchema.optional(),
  parametersJsonSchema: jsonObjectSchema.optional(),
});

/** One `tools[]` entry; members other than functionDeclarations (googleSearch, codeExecution...) are refused in parse. */
const toolSchema = z.looseObject({ functionDeclarations: z.array(functionDeclarationSchema).optional() });

/** `thinkingConfig`: a budget in tokens (0 off, -1 dynamic) or a level; members not listed here are refused in parse. */
const thinkingConfigSchema = z.looseObject({
  includeThoughts: z.boolean().optional(),
  thinkingBudget: z.number().int().min(-1).optional(),
  thinkingLevel: z.enum(['MINIMAL', 'LOW', 'MEDIUM', 'HIGH', 'THINKING_LEVEL_UNSPECIFIED']).optional(),
});

/** The members of `thinkingConfig` parse acts on. */
export const thinkingConfigFields = new Set(['includeThoughts', 'thinkingBudget', 'thinkingLevel']);

/** `generationConfig`; members not listed here are refused in parse. */
export const generationConfigSchema = z.looseObject({
  temperature: z.number().min(0).max(2).optional(),
  topP: z.number().min(0).max(1).optional(),
  topK: z.number().int().min(1).optional(),
  candidateCount: z.number().int().min(1).optional(),
  maxOutputTokens: z.number().int().min(1).optional(),
  stopSequences: z.array(z.string()).max(5).optional(),
  seed: z.number().int().optional(),
  presencePenalty: z.number().optional(),
  frequencyPenalty: z.number().optional(),
  responseMimeType: z.string().optional(),
  responseSchema: jsonObjectSchema.optional(),
  responseJsonSchema: jsonObjectSchema.optional(),
  responseModalities: z.array(z.string()).optional(),
  thinkingConfig: thinkingConfigSchema.optional(),
});

/**
 * One `safetySettings` entry as the Gemini API takes it: a harm category and its block threshold (Google checks the
 * names); Vertex's `method` is not part of the Gemini API and is refused.
 */
const safetySettingSchema = z.strictObject({ category: z.string().min(1), threshold: z.string().min(1) });

/** A `generateContent` / `streamGenerateContent` body (the model is in the path). */
export const generateContentRequestSchema = z.looseObject({
  contents: z.array(geminiContentSchema).min(1),
  systemInstruction: z.object({ role: z.string().optional(), parts: z.array(geminiPartSchema) }).optional(),
  tools: z.array(toolSchema).optional(),
  // Members not listed here are refused in parse (toolConfigFields, functionCallingConfigFields).
  toolConfig: z
    .looseObject({
      functionCallingConfig: z
        .looseObject({
          mode: z.enum(['AUTO', 'ANY', 'NONE', 'VALIDATED', 'MODE_UNSPECIFIED']).optional(),
          allowedFunctionNames: z.array(z.string().min(1)).optional(),
        })
        .optional(),
    })
    .optional(),
  generationConfig: generationConfigSchema.optional(),
  safetySettings: z.array(safetySettingSchema).optional(),
});

/** The members of `toolConfig` parse acts on. */
export const toolConfigFields = new Set(['functionCallingConfig']);

/** The members of `toolConfig.functionCallingConfig` parse acts on. */
export const functionCallingConfigFields = new Set(['mode', 'allowedFunctionNames']);

/** A validated generateContent body. */
export type GenerateContentRequestBody = z.output<typeof generateContentRequestSchema>;

/** Top-level members parse acts on. */
export const generateContentFields = new Set([
  'contents',
  'systemInstruction',
  'tools',
  'toolConfig',
  'generationConfig',
  'safetySettings',
]);

/** Top-level members accepted and not translated: `model` repeats the path's model, which is the one served. */
export const ignoredGenerateContentFields = new Set(['model']);

/** `generationConfig` members parse acts on. */
export const generationConfigFields = new Set([
  'temperature',
  'topP',
  'topK',
  'candidateCount',
  'maxOutputTokens',
  'stopSequences',
  'seed',
  'presencePenalty',
  'frequencyPenalty',
  'responseMimeType',
  'responseSchema',
  'responseJsonSchema',
  'responseModalities',
  'thinkingConfig',
]);

/** A `countTokens` body: contents (or a whole generateContentRequest, as the SDK sends with a config). */
export const countTokensRequestSchema = z.looseObject({
  contents: z.array(geminiContentSchema).optional(),
  generateContentRequest: z.looseObject({}).optional(),
});

/** One `embedContent` request (also each entry of `batchEmbedContents.requests`). */
export const embedContentRequestSchema = z.looseObject({
  model: z.string().optional(),
  content: z.object({ role: z.string().optional(), parts: z.array(geminiPartSchema).min(1) }),
  taskType: z.string().optional(),
  title: z.string().optional(),
  outputDimensionality: z.number().int().min(1).optional(),
});

/** A validated embedContent request. */
export type EmbedContentRequestBody = z.output<typeof embedContentRequestSchema>;

/** A `batchEmbedContents` body. */
export const batchEmbedContentsRequestSchema = z.object({
  requests: z.array(embedContentRequestSchema).min(1),
});
