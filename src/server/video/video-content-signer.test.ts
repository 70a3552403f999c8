import { describe, expect, it } from 'vitest';
import { buildVideoContentUrl, createVideoContentSigner } from './video-content-signer.js';

describe('createVideoContentSigner', () => {
  const signer = createVideoContentSigner('a gateway secret');

  it('verifies its own signature until the expiry, not at or after it', () => {
    const signature = signer.sign('task_a', 1000);
    expect(signer.verify('task_a', '1000', signature, 999)).toBe(true);
    expect(signer.verify('task_a', '1000', signature, 1000)).toBe(false);
  });

  it('refuses another task, another expiry, a changed or truncated signature and a malformed expiry', () => {
    const signature = signer.sign('task_a', 1000);
    expect(signer.verify('task_b', '1000', signature, 0)).toBe(false);
    expect(signer.verify('task_a', '1001', signature, 0)).toBe(false);
    expect(signer.verify('task_a', '1000', signature.slice(0, -1), 0)).toBe(false);
    expect(signer.verify('task_a', '1000', `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`, 0)).toBe(
      false,
    );
    expect(signer.verify('task_a', '1e3', signature, 0)).toBe(false);
  });

  it('derives its key from the secret: same secret, same signature (survives restarts); another secret, another', () => {
    expect(createVideoContentSigner('a gateway secret').sign('task_a', 1000)).toBe(signer.sign('task_a', 1000));
    expect(createVideoContentSigner('another secret').verify('task_a', '1000', signer.sign('task_a', 1000), 0)).toBe(
      false,
    );
  });

  it('builds the content URL with the expiry and the signature as query values', () => {
    const url = new URL(buildVideoContentUrl('https://gateway.example', signer, 'task_a', 1000));
    expect(url.pathname).toBe('/v1/videos/task_a/content');
    expect(url.searchParams.get('expires')).toBe('1000');
    expect(signer.verify('task_a', '1000', url.searchParams.get('signature') ?? '', 0)).toBe(true);
  });
});
