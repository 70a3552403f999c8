// The contract between the simulator's server and its endpoint handlers: what goes in, what comes out.
import type { ModelBehaviour } from './openai-simulator-behaviour.js';
import type { EventStreamPlan } from './openai-simulator-stream.js';
import type { RequestBody } from './openai-simulator-validation.js';

/** One uploaded multipart file, held in memory. */
export interface UploadedFile {
  /** the multipart field it came in, e.g. `image[]` */
  fieldName: string;
  /** the client's file name */
  filename: string;
  /** the part's content type */
  contentType: string;
  /** the file bytes */
  content: Buffer;
}

/** What an endpoint handler gets. */
export interface EndpointInput {
  /** the JSON body, or the multipart fields (files appear there as {filename, contentType, size}) */
  body: RequestBody;
  /** uploaded files by field name (empty for JSON requests) */
  files: Map<string, UploadedFile[]>;
  /** the behaviour chosen by the model name */
  behaviour: ModelBehaviour;
}

/** What an endpoint handler answers; the server sends it with status 200. */
export type EndpointAnswer =
  /** a JSON body */
  | { kind: 'json'; body: unknown }
  /** a plain-text body (audio text, srt, vtt) */
  | { kind: 'text'; body: string; contentType: string }
  /** a binary body (speech audio) */
  | { kind: 'binary'; body: Buffer; contentType: string }
  /** a server-sent-event stream */
  | { kind: 'stream'; plan: EventStreamPlan };

/** An endpoint handler; throws SimulatedError to answer with an error. */
export type EndpointHandler = (input: EndpointInput) => EndpointAnswer;
