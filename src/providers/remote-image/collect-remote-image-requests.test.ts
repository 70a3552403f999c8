import { describe, expect, it } from 'vitest';
import type { CanonicalMessage } from '../../core/canonical/canonical-request.js';
import { collectRemoteImageRequests } from './collect-remote-image-requests.js';

describe('collectRemoteImageRequests', () => {
  it('lists the http(s) image URLs of user messages with their params (in chat terms), leaving data URLs and URLs the vendor reads', () => {
    const image = (url: string) => ({ type: 'image' as const, url });
    const messages: CanonicalMessage[] = [
      { role: 'system', content: [{ type: 'text', text: 'Describe.' }] },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'these' },
          image('https://images.example.test/a.png'),
          image('data:image/png;base64,AA=='),
        ],
      },
      { role: 'assistant', content: [{ type: 'text', text: 'ok' }] },
      {
        role: 'user',
        content: [image('HTTP://images.example.test/b.png'), image('https://vendor.example.test/files/c')],
      },
      { role: 'user', content: [{ type: 'text', text: 'plain text' }] },
    ];
    expect(collectRemoteImageRequests(messages, (url) => url.includes('/files/'))).toEqual([
      { url: 'https://images.example.test/a.png', param: 'messages[1].content[1].image_url.url' },
      { url: 'HTTP://images.example.test/b.png', param: 'messages[3].content[0].image_url.url' },
    ]);
  });
});
