import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { describe, expect, it } from 'vitest';
import { readServerSentEvents } from './read-server-sent-events.js';

describe('readServerSentEvents', () => {
  it('leaves the body whole when a decoder stops at its terminal event, so the connection can be reused', async () => {
    let connections = 0;
    const server = http.createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('event: message_start\ndata: {}\n\n');
      // The terminal event, then the end of the chunked body in a later packet (as vendors send them).
      setImmediate(() => {
        response.write('event: message_stop\ndata: {}\n\n');
        setTimeout(() => response.end(), 5);
      });
    });
    server.on('connection', () => (connections += 1));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const dispatcher = new Agent({ keepAliveTimeout: 10_000 });
    try {
      for (let stream = 0; stream < 3; stream++) {
        const response = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { dispatcher });
        const events: string[] = [];
        for await (const event of readServerSentEvents(response.body)) {
          events.push(event.event ?? '');
          if (event.event === 'message_stop') break;
        }
        expect(events).toEqual(['message_start', 'message_stop']);
        expect(response.body.destroyed).toBe(false);
        // What the relay does with a complete answer: read the rest and drop it.
        response.body.resume();
        await new Promise((resolve) => response.body.once('close', resolve));
        // undici marks the connection idle a moment after the body's end.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(connections).toBe(1);
    } finally {
      await dispatcher.close();
      server.close();
    }
  });
});
