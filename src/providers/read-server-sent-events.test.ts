import { describe, expect, it } from 'vitest';
import {
  startSplitEndStreamServer,
  waitUntilConnectionIsIdle,
} from '../../test/helpers/start-split-end-stream-server.js';
import { readServerSentEvents } from './read-server-sent-events.js';

describe('readServerSentEvents', () => {
  it('leaves the body whole when a decoder stops at its terminal event, so the connection can be reused', async () => {
    const server = await startSplitEndStreamServer(
      'event: message_start\ndata: {}\n\n',
      'event: message_stop\ndata: {}\n\n',
    );
    try {
      for (let stream = 0; stream < 3; stream++) {
        const response = await server.requestStream();
        const events: string[] = [];
        for await (const event of readServerSentEvents(response.body)) {
          events.push(event.event ?? '');
          if (event.event === 'message_stop') break;
        }
        expect(events).toEqual(['message_start', 'message_stop']);
        expect(response.body.destroyed).toBe(false);
        // What the relay does with a complete answer: read the rest and drop it.
        response.body.resume();
        await waitUntilConnectionIsIdle(response.body);
      }
      expect(server.connections).toBe(1);
    } finally {
      await server.close();
    }
  });
});
