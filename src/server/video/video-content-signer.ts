import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** Signs and checks the expiring gateway URLs that let a client download a finished video without its API key. */
export interface VideoContentSigner {
  /** the `signature` query value for a task's content, valid until `expiresAt` (Unix seconds) */
  sign(taskId: string, expiresAt: number): string;
  /** true when `signature` was made by `sign(taskId, expires)` and `expires` (Unix seconds) is after `nowSeconds` */
  verify(taskId: string, expires: string, signature: string, nowSeconds: number): boolean;
}

/** Distinguishes this key from every other key derived from the gateway's secret (channel secrets, reasoning seals). */
const keyPurpose = 'gateway video content URL signing key v1';

/** A signer whose HMAC-SHA256 key is derived (HKDF) from the gateway's secret passphrase, so it survives restarts. */
export function createVideoContentSigner(secretPassphrase: string): VideoContentSigner {
  const key = Buffer.from(hkdfSync('sha256', secretPassphrase, '', keyPurpose, 32));
  const signatureOf = (taskId: string, expires: string) =>
    createHmac('sha256', key).update(`${taskId}\n${expires}`).digest();
  return {
    sign(taskId, expiresAt) {
      return signatureOf(taskId, String(expiresAt)).toString('base64url');
    },
    verify(taskId, expires, signature, nowSeconds) {
      if (!/^\d{1,12}$/.test(expires) || Number(expires) <= nowSeconds) return false;
      const given = Buffer.from(signature, 'base64url');
      const expected = signatureOf(taskId, expires);
      // timingSafeEqual throws on unequal lengths; the length of a MAC is no secret.
      return given.length === expected.length && timingSafeEqual(given, expected);
    },
  };
}

/** `{origin}/v1/videos/{id}/content?expires=…&signature=…`: the spec's `video_url`, fetchable with no API key. */
export function buildVideoContentUrl(
  origin: string,
  signer: VideoContentSigner,
  taskId: string,
  expiresAt: number,
): string {
  const query = new URLSearchParams({ expires: String(expiresAt), signature: signer.sign(taskId, expiresAt) });
  return `${origin}/v1/videos/${encodeURIComponent(taskId)}/content?${query.toString()}`;
}
