/** A request's body and its answer as the body log keeps them (each cut at the operator's size cap). */
export interface RequestBodyRecord {
  /** the request's `x-request-id`, as in its usage log */
  requestId: string;
  /** Unix milliseconds when the request arrived */
  createdAt: number;
  userId: string;
  apiKeyId: string;
  /** the usage log's endpoint, e.g. `chat.completions` */
  endpoint: string;
  /** HTTP status the client received */
  status: number;
  /** the body the client sent (UTF-8 text), cut at the cap; headers, and so keys, are never kept */
  requestBody: string;
  /** bytes of the whole request body */
  requestBytes: number;
  /** true when `requestBody` is the first `cap` bytes only */
  requestTruncated: boolean;
  /** the JSON answer the client got, cut at the cap; null when no answer body was sent (a stream, a dropped client) */
  responseBody: string | null;
  /** bytes of the whole answer body */
  responseBytes: number;
  /** true when `responseBody` is the first `cap` bytes only */
  responseTruncated: boolean;
}

/** The optional body log (GATEWAY_REQUEST_BODY_LOG): written in batches off the request path, read by admins. */
export interface RequestBodyStore {
  /** stores the records; a request id already stored is left as it is (a retried batch writes nothing twice) */
  writeRequestBodies(records: readonly RequestBodyRecord[]): Promise<void>;
  /** the bodies kept for one request id, or undefined */
  findRequestBody(requestId: string): Promise<RequestBodyRecord | undefined>;
  /** one retention batch: deletes at most `limit` of the oldest records from before `before` (Unix ms); returns how many */
  deleteOldestRequestBodies(before: number, limit: number): Promise<number>;
}
