import { createHmac, timingSafeEqual } from 'node:crypto';
import type { SecretKeyCheckStore } from '../storage/secret-key-check-store.js';
import type { SecretBox } from './secret-box.js';

/** The constant the check value is an HMAC of; a new one would make every stored check value differ. */
const checkConstant = 'gateway secret key check v1';

/** The check value of key material: hex HMAC-SHA256 of a constant, which tells keys apart without revealing them. */
export function secretKeyCheckValue(keyMaterial: string): string {
  return createHmac('sha256', keyMaterial).update(checkConstant).digest('hex');
}

/** Start refused: this node's secret key is not the one the database's secrets are sealed with. */
export class SecretKeyMismatchError extends Error {
  constructor(keySource: string, reason: string) {
    super(
      `This node's secret key (${keySource}) does not match the secret key of this database: ${reason}. ` +
        'Every node on one database needs the same key: copy secret.key from a node that works into this ' +
        "node's data folder, or set the same GATEWAY_SECRET_KEY on every node.",
    );
    this.name = 'SecretKeyMismatchError';
  }
}

/** What `verifySecretKey` checks against. */
export interface SecretKeyVerification {
  store: SecretKeyCheckStore;
  keyMaterial: string;
  /** where the key came from, for the refusal message (`GATEWAY_SECRET_KEY` or the key file's path) */
  keySource: string;
  secretBox: SecretBox;
  /** the channel secrets already sealed in the database (read only when no check value is stored yet) */
  sealedSecrets(): Promise<readonly string[]>;
  /** Unix milliseconds */
  now: number;
}

/**
 * Compares this node's key with the database's check value and throws SecretKeyMismatchError when they differ.
 * The first start records the value; a database from before the check (secrets but no value) first proves the key
 * by opening one of its channel secrets, so a node with a wrong key cannot record its own value.
 * Returns `recorded` on the first start, `matched` after.
 */
export async function verifySecretKey(verification: SecretKeyVerification): Promise<'recorded' | 'matched'> {
  const { store, keyMaterial, keySource } = verification;
  const own = secretKeyCheckValue(keyMaterial);
  const stored = await store.read();
  if (stored !== undefined) {
    if (sameCheckValue(stored, own)) return 'matched';
    throw new SecretKeyMismatchError(keySource, "the check value the first node stored is not this key's");
  }
  const sealed = await verification.sealedSecrets();
  if (sealed.length > 0 && !sealed.some((value) => opens(verification.secretBox, value)))
    throw new SecretKeyMismatchError(keySource, `none of the ${sealed.length} stored channel secrets opens with it`);
  const recorded = await store.recordIfAbsent(own, verification.now);
  if (!sameCheckValue(recorded, own))
    throw new SecretKeyMismatchError(keySource, 'another node recorded a different key at the same time');
  return 'recorded';
}

function sameCheckValue(left: string, right: string): boolean {
  return left.length === right.length && timingSafeEqual(Buffer.from(left), Buffer.from(right));
}

function opens(secretBox: SecretBox, sealed: string): boolean {
  try {
    secretBox.decrypt(sealed);
    return true;
  } catch {
    return false;
  }
}
