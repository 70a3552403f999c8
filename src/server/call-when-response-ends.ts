import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Callbacks of responses still open on a socket, run when the socket closes; one socket listener for all of them. */
const openBySocket = new WeakMap<Socket, Set<() => void>>();
/** Callbacks waiting for a response's end; one 'close' listener per response however many guards wait for it. */
const endsByResponse = new WeakMap<ServerResponse, Array<() => void>>();

/**
 * Calls `callback` once, when the request's response ends: finished, failed, hijacked for a stream or cut by the
 * client. The response's 'close' covers nearly all of these; a response queued behind others on a pipelined
 * connection emits nothing when the client drops that connection, so the socket's 'close' covers it. Every guard of a
 * request (the in-flight caps, the route-group count) shares one listener on the response and one on the socket: a
 * listener each put 11 on a /v1 response, past Node's leak warning.
 */
export function callWhenResponseEnds(request: FastifyRequest, reply: FastifyReply, callback: () => void): void {
  const socket = request.raw.socket;
  let open = openBySocket.get(socket);
  if (open === undefined) {
    const callbacks = new Set<() => void>();
    openBySocket.set(socket, callbacks);
    socket.once('close', () => {
      for (const pending of callbacks) pending();
    });
    open = callbacks;
  }
  const callbacks = open;
  const end = (): void => {
    if (!callbacks.delete(end)) return;
    callback();
  };
  callbacks.add(end);
  const response = reply.raw;
  const ends = endsByResponse.get(response);
  if (ends !== undefined) {
    ends.push(end);
    return;
  }
  const responseEnds = [end];
  endsByResponse.set(response, responseEnds);
  response.on('close', () => {
    for (const pending of responseEnds) pending();
  });
}
