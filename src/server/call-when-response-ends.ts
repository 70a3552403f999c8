import type { Socket } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Callbacks of responses still open on a socket, run when the socket closes; one socket listener for all of them. */
const openBySocket = new WeakMap<Socket, Set<() => void>>();

/**
 * Calls `callback` once, when the request's response ends: finished, failed, hijacked for a stream or cut by the
 * client. The response's 'close' covers nearly all of these; a response queued behind others on a pipelined
 * connection emits nothing when the client drops that connection, so the socket's 'close' covers it.
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
    reply.raw.off('close', end);
    callback();
  };
  callbacks.add(end);
  reply.raw.on('close', end);
}
