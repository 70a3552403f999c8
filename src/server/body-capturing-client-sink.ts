import type { ResponseHeaderGroups } from '../dispatch/client-sink.js';
import { FastifyClientSink } from './fastify-client-sink.js';

/**
 * The Fastify sink that also keeps the JSON answer it sends (status and body text), for the optional request body log.
 * Streams are not kept: their parts go straight to the socket.
 */
export class BodyCapturingClientSink extends FastifyClientSink {
  /** the body of the JSON answer sent, or undefined when none was sent through `sendAnswer` */
  answerBody: string | undefined;

  override sendAnswer(status: number, headers: ResponseHeaderGroups, body: string): Promise<void> {
    this.answerBody = body;
    return super.sendAnswer(status, headers, body);
  }
}
