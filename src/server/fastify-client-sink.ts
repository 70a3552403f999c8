import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { GatewayError } from '../core/gateway-error.js';
import type { ClientDrainOutcome, ClientSink, ResponseHeaderGroups } from '../dispatch/client-sink.js';
import { answerSecurityHeaders } from './answer-security-headers.js';
import { renderGatewayError } from './render-gateway-error.js';

/**
 * The ClientSink over a Fastify reply: a JSON answer goes through Fastify (its hooks add the request id), a stream
 * takes the raw response over (hijack) and writes to it directly, with the request id in its head.
 */
export class FastifyClientSink implements ClientSink {
  private readonly reply: FastifyReply;

  constructor(reply: FastifyReply) {
    this.reply = reply;
  }

  get gone(): boolean {
    return this.reply.raw.destroyed;
  }

  get streaming(): boolean {
    return this.reply.sent;
  }

  get needsDrain(): boolean {
    return this.reply.raw.writableNeedDrain;
  }

  onClientLeave(listener: () => void): () => void {
    const response = this.reply.raw;
    // The 'close' that follows a complete answer is no leaving.
    const onClose = (): void => {
      if (!response.writableFinished) listener();
    };
    // 'close' fires once per response; `on` spares every stream `once`'s wrapper and bound function.
    response.on('close', onClose);
    return () => response.off('close', onClose);
  }

  async sendAnswer(status: number, headers: ResponseHeaderGroups, body: string): Promise<void> {
    // Fastify keeps the last value set for a name, as the groups want.
    for (const group of headers) this.reply.headers(group);
    await this.reply.code(status).send(body);
  }

  startStream(): void {
    if (!this.reply.sent) this.reply.hijack();
  }

  writeHead(status: number, headers: ResponseHeaderGroups): void {
    const response = this.reply.raw;
    // The head leaves with the write that always follows, in one packet: the socket stays corked until the next tick.
    // It is flushed as a write of its own all the same, because Node keeps the head string for the response's life:
    // prepended to the first chunk it stays a tree of some 80 string pieces, which every young-generation collection
    // copies while the stream lasts; written alone it is flattened by the write.
    response.cork();
    response.writeHead(status, headerLines(headers, String(this.reply.request.id)));
    response.flushHeaders();
    process.nextTick(uncorkResponse, response);
  }

  write(chunk: string | Uint8Array): void {
    this.reply.raw.write(chunk);
  }

  waitForDrain(timeoutMs: number): Promise<ClientDrainOutcome> {
    const response = this.reply.raw;
    if (response.destroyed) return Promise.resolve('closed');
    // A client that stops reading would otherwise hold the upstream stream, its buffers and its slots for as long as
    // it likes: after the deadline the response is destroyed, which closes the connection and aborts the upstream.
    return new Promise((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (outcome: ClientDrainOutcome): void => {
        clearTimeout(timer);
        response.off('drain', onDrain);
        response.off('close', onClose);
        resolve(outcome);
      };
      const onDrain = (): void => finish('drained');
      const onClose = (): void => finish('closed');
      response.on('drain', onDrain);
      response.on('close', onClose);
      if (timeoutMs > 0) {
        timer = setTimeout(() => {
          finish('timed-out');
          response.destroy();
        }, timeoutMs);
      }
    });
  }

  end(chunk?: string): void {
    if (chunk === undefined) this.reply.raw.end();
    else this.reply.raw.end(chunk);
  }

  endWithError(error: GatewayError): void {
    const response = this.reply.raw;
    if (response.headersSent || response.destroyed) return;
    const rendered = renderGatewayError(this.reply.request, error);
    response.writeHead(rendered.status, {
      'content-type': 'application/json; charset=utf-8',
      ...rendered.headers,
      ...answerSecurityHeaders,
      'x-request-id': String(this.reply.request.id),
    });
    response.end(JSON.stringify(rendered.body));
  }

  abort(): void {
    this.reply.raw.destroy();
  }
}

function uncorkResponse(response: ServerResponse): void {
  response.uncork();
}

/**
 * The groups as Node's flat `[name, value, ...]` list, each name once (its last group's value), then the security
 * headers (an event stream's `no-cache` gives way to `no-store`) and the request id.
 * Merging the groups into one object instead took 6 µs of a stream at concurrency 1: copies of objects with many
 * dynamic names.
 */
function headerLines(groups: ResponseHeaderGroups, requestId: string): string[] {
  const lines: string[] = [];
  for (let index = 0; index < groups.length; index++) {
    const group = groups[index]!;
    for (const name in group) {
      if (name === 'x-request-id' || name in answerSecurityHeaders || replacedLater(groups, index, name)) continue;
      lines.push(name, group[name]!);
    }
  }
  lines.push(
    'cache-control',
    answerSecurityHeaders['cache-control'],
    'x-content-type-options',
    answerSecurityHeaders['x-content-type-options'],
    'x-request-id',
    requestId,
  );
  return lines;
}

function replacedLater(groups: ResponseHeaderGroups, index: number, name: string): boolean {
  for (let later = index + 1; later < groups.length; later++) if (Object.hasOwn(groups[later]!, name)) return true;
  return false;
}
