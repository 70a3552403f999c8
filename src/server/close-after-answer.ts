import type { Socket } from 'node:net';

/** How long a connection the gateway closes stays readable after its last answer, in milliseconds. */
const lingerMs = 2_000;

/**
 * Writes the last bytes of a connection and closes it with a linger, for answers written straight to a socket.
 */
export function closeAfterAnswer(socket: Socket, answer: Buffer): void {
  if (socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  socket.end(answer);
  destroyAfterLinger(socket);
}

/**
 * Makes Node's HTTP server close this connection with a linger once its `Connection: close` response is written.
 * Node ends such a response with `socket.destroySoon()` (when the socket has one), which closes the socket as
 * soon as the answer is flushed; if the client is still sending a body, the kernel then answers its next bytes
 * with a reset, and a reset can discard the answer before the client reads it. Lingering keeps reading (and
 * dropping) what the client sends for a short while, so it reads the answer first.
 */
export function lingerWhenClosing(socket: Socket): void {
  socket.destroySoon = () => {
    if (socket.destroyed) return;
    if (socket.writable) socket.end();
    destroyAfterLinger(socket);
  };
}

function destroyAfterLinger(socket: Socket): void {
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  timer.unref();
  socket.once('close', () => clearTimeout(timer));
  // The client closed its side too: nothing more will be read, so the connection can go now.
  socket.once('end', () => socket.destroy());
}
