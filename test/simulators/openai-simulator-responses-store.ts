// The simulator's stored responses (`store` defaults to true): what GET, DELETE, input_items and previous_response_id read.
import type { ResponseItem } from './openai-simulator-responses-items.js';
import type { ResponseObject } from './openai-simulator-responses-object.js';

/** One stored response with the items it was created from. */
export interface StoredResponse {
  /** the final response object, as the client received it */
  response: ResponseObject;
  /** this request's own input items, in request order */
  input: ResponseItem[];
  /** the whole conversation the model saw (previous chain + this input), for a later previous_response_id */
  context: ResponseItem[];
}

/** In-memory responses of one simulator, by id; kept until deleted or the simulator closes. */
export class ResponsesStore {
  private readonly responses = new Map<string, StoredResponse>();

  /** Keeps a response (only called when the request had `store` true). */
  save(stored: StoredResponse): void {
    this.responses.set(stored.response.id, stored);
  }

  /** The stored response with this id, if any. */
  find(id: string): StoredResponse | undefined {
    return this.responses.get(id);
  }

  /** Forgets a response; false when there was none. */
  delete(id: string): boolean {
    return this.responses.delete(id);
  }

  /** Ids of every stored response, oldest first. */
  ids(): string[] {
    return [...this.responses.keys()];
  }

  /** Finds an input or output item of any stored response, for `item_reference`. */
  findItem(id: string): ResponseItem | undefined {
    for (const stored of this.responses.values()) {
      const item =
        stored.input.find((candidate) => candidate.id === id) ??
        stored.response.output.find((candidate) => candidate.id === id);
      if (item !== undefined) return item;
    }
    return undefined;
  }
}
