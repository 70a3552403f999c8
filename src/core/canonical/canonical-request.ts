import type { VendorArtefact } from './vendor-artefact.js';

/** Plain text. */
export interface CanonicalTextPart {
  type: 'text';
  text: string;
}

/** An image: `url` is an http(s) URL or a `data:` URL; `detail` is OpenAI's resolution hint. */
export interface CanonicalImagePart {
  type: 'image';
  url: string;
  detail?: 'auto' | 'low' | 'high' | 'original';
}

/** A document (PDF and the like) given inline (`data`, a `data:` URL or bare base64) or by `url`. */
export interface CanonicalFilePart {
  type: 'file';
  data?: string;
  url?: string;
  filename?: string;
}

/** Reasoning the assistant did on an earlier turn, with the vendor's artefact when one came with it. */
export interface CanonicalReasoningPart {
  type: 'reasoning';
  /** the reasoning text (or its summary) as the client saw it; may be empty for redacted reasoning */
  text: string;
  /** only present when it was sealed by this gateway and unsealed intact */
  artefact?: VendorArtefact;
}

/** A tool call the assistant made on an earlier turn. */
export interface CanonicalToolCallPart {
  type: 'tool-call';
  /** the id that ties the call to its result */
  callId: string;
  name: string;
  /** the arguments as a JSON string, exactly as the model produced them */
  arguments: string;
  /** e.g. Gemini's `thoughtSignature` on a function call */
  artefact?: VendorArtefact;
}

/** The result of a tool call, given by the client. */
export interface CanonicalToolResultPart {
  type: 'tool-result';
  callId: string;
  output: string | Array<CanonicalTextPart | CanonicalImagePart | CanonicalFilePart>;
}

/** What a user message may hold. */
export type CanonicalUserContent = CanonicalTextPart | CanonicalImagePart | CanonicalFilePart;

/** What an assistant message may hold, in the order the model produced it. */
export type CanonicalAssistantContent = CanonicalTextPart | CanonicalReasoningPart | CanonicalToolCallPart;

/** One turn of the conversation. `developer` is kept apart from `system` for vendors that distinguish them. */
export type CanonicalMessage =
  | { role: 'system' | 'developer'; content: CanonicalTextPart[] }
  | { role: 'user'; content: CanonicalUserContent[] }
  | { role: 'assistant'; content: CanonicalAssistantContent[] }
  | { role: 'tool'; content: CanonicalToolResultPart[] };

/** A function the model may call; `parameters` is a JSON Schema object. */
export interface CanonicalTool {
  name: string;
  description?: string;
  parameters: Record<string, unknown> | null;
  /** OpenAI's strict schema adherence; null when the client did not say */
  strict: boolean | null;
}

/** Which tools the model may or must call. */
export type CanonicalToolChoice =
  { type: 'auto' } | { type: 'none' } | { type: 'required' } | { type: 'tool'; name: string };

/** The shape of the answer's text. */
export type CanonicalOutputFormat =
  | { type: 'text' }
  | { type: 'json-object' }
  | {
      type: 'json-schema';
      name: string;
      schema: Record<string, unknown>;
      strict: boolean | null;
      description?: string;
    };

/** How hard a reasoning model should think (OpenAI's scale; adapters map it to budgets or levels). */
export type CanonicalReasoningEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high' | 'xhigh' | 'max';

/** Sampling controls; the optional ones exist on some client protocols only (chat, Messages) and are absent otherwise. */
export interface CanonicalSampling {
  /** null when the client did not say */
  temperature: number | null;
  /** null when the client did not say */
  topP: number | null;
  /** Anthropic and Gemini `top_k` */
  topK?: number;
  /** chat `stop`, Messages `stop_sequences` */
  stopSequences?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
}

/** The gateway's own request: what every client protocol parses into and every vendor adapter encodes from. */
export interface CanonicalRequest {
  /** the model name the client asked for (before any channel mapping) */
  model: string;
  /** the system prompt that comes before all messages (Responses `instructions`, Anthropic `system`), or null */
  instructions: string | null;
  messages: CanonicalMessage[];
  tools: CanonicalTool[];
  /** null when the client did not say (the vendor's default, auto when tools are given) */
  toolChoice: CanonicalToolChoice | null;
  /** null when the client did not say */
  parallelToolCalls: boolean | null;
  outputFormat: CanonicalOutputFormat;
  reasoningEffort: CanonicalReasoningEffort | null;
  /**
   * true when the client's protocol makes the reasoning control a wish a model without reasoning may answer without
   * (Messages `thinking`, `output_config.effort`): for a model the catalog says cannot reason it is then dropped;
   * otherwise (chat `reasoning_effort`, Responses `reasoning.effort`) it is refused there
   */
  reasoningOptional?: boolean;
  /**
   * the client's own thinking budget in tokens, when its protocol takes one (Gemini `thinkingBudget` above 0): a
   * vendor that takes budgets (Gemini 2.5) gets it exactly; every other vendor gets `reasoningEffort`, what it reads as
   */
  thinkingBudgetTokens?: number;
  /** tokens the answer may have, reasoning included; null for the vendor's default */
  maxOutputTokens: number | null;
  sampling: CanonicalSampling;
  /** the client's labels: echoed, never sent to a vendor */
  metadata: Record<string, string> | null;
  /** an id of the client's end user that vendors may use against abuse (chat `user`, Messages `metadata.user_id`) */
  endUserId?: string;
  /**
   * top-level members of the client's body that only one vendor honours, sent to its channels as they came (Gemini
   * `safetySettings`); the route lets only that vendor's channels serve such a request
   */
  vendorExtras?: { gemini?: Readonly<Record<string, unknown>> };
  stream: boolean;
}
