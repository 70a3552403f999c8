/** A stored Responses API response, as the routes and the chain loader read it. */
export interface StoredResponseRecord {
  /** the gateway's `resp_...` id */
  id: string;
  userId: string;
  apiKeyId: string;
  /** the public model id */
  model: string;
  channelId: string | null;
  /** the vendor's own response id (pass-through only); never shown to a client */
  vendorResponseId: string | null;
  previousResponseId: string | null;
  /** the request's input items, with gateway item ids */
  inputItems: Array<Record<string, unknown>>;
  /** the final Response object as the client saw it */
  response: Record<string, unknown>;
  /** Unix milliseconds */
  createdAt: number;
}

/** Stored responses; every read and delete is scoped to the owner, so another user's id is simply not found. */
export interface ResponsesStore {
  save(record: StoredResponseRecord): Promise<void>;
  /** the response if it exists and belongs to the user */
  find(id: string, userId: string): Promise<StoredResponseRecord | undefined>;
  /** true when a response of the user was deleted */
  delete(id: string, userId: string): Promise<boolean>;
}
