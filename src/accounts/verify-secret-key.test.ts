import { describe, expect, it } from 'vitest';
import type { SecretKeyCheckStore } from '../storage/secret-key-check-store.js';
import { createSecretBox } from './secret-box.js';
import { SecretKeyMismatchError, secretKeyCheckValue, verifySecretKey } from './verify-secret-key.js';

const firstKey = 'the-first-nodes-key-of-32-bytes-or-more-0001';
const otherKey = 'another-nodes-key-of-32-bytes-or-more-00002';

/** The one-row table in memory. */
function memoryStore(initial?: string): SecretKeyCheckStore & { value: string | undefined } {
  const store = {
    value: initial,
    read: async () => store.value,
    recordIfAbsent: async (checkValue: string) => (store.value ??= checkValue),
    replace: async (from: string, to: string) => {
      if (store.value !== from) return false;
      store.value = to;
      return true;
    },
  };
  return store;
}

function verification(store: SecretKeyCheckStore, keyMaterial: string, sealed: readonly string[] = []) {
  return {
    store,
    keyMaterial,
    keySource: '/data/secret.key',
    secretBox: createSecretBox(keyMaterial),
    sealedSecrets: async () => sealed,
    now: 1_000,
  };
}

describe('verifySecretKey', () => {
  it('records the check value on the first start and matches it after', async () => {
    const store = memoryStore();
    expect(await verifySecretKey(verification(store, firstKey))).toBe('recorded');
    expect(store.value).toBe(secretKeyCheckValue(firstKey));
    expect(store.value).not.toContain(firstKey);
    expect(await verifySecretKey(verification(store, firstKey))).toBe('matched');
  });

  it('refuses another key with a message that says so and how to fix it', async () => {
    const store = memoryStore(secretKeyCheckValue(firstKey));
    const refusal = verifySecretKey(verification(store, otherKey));
    await expect(refusal).rejects.toBeInstanceOf(SecretKeyMismatchError);
    await expect(refusal).rejects.toThrow(
      /This node's secret key \(\/data\/secret\.key\) does not match the secret key of this database.*copy secret\.key/,
    );
    expect(store.value).toBe(secretKeyCheckValue(firstKey));
  });

  it('on a database with channel secrets but no check value, records only a key that opens one of them', async () => {
    const sealed = [createSecretBox(firstKey).encrypt('sk-one'), 'v1:garbage:x:y'];
    const store = memoryStore();
    await expect(verifySecretKey(verification(store, otherKey, sealed))).rejects.toThrow(
      /none of the 2 stored channel secrets opens with it/,
    );
    expect(store.value).toBeUndefined();
    expect(await verifySecretKey(verification(store, firstKey, sealed))).toBe('recorded');
  });

  it('refuses when another node recorded a different key at the same moment', async () => {
    const racing: SecretKeyCheckStore = {
      read: async () => undefined,
      recordIfAbsent: async () => secretKeyCheckValue(firstKey),
      replace: async () => false,
    };
    await expect(verifySecretKey(verification(racing, otherKey))).rejects.toThrow(/another node recorded/);
  });
});
