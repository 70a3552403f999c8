import { createCipheriv, createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ChannelChanges, ChannelRecord } from '../storage/store-records.js';
import { resealChannelSecrets } from './reseal-channel-secrets.js';
import { createSecretBox } from './secret-box.js';

const key = 'the-gateway-key-of-32-bytes-or-more-000001';

function sealV1(keyMaterial: string, plainText: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', createHash('sha256').update(keyMaterial).digest(), nonce);
  const encrypted = Buffer.concat([cipher.update(plainText, 'utf8'), cipher.final()]);
  return ['v1', nonce.toString('base64'), cipher.getAuthTag().toString('base64'), encrypted.toString('base64')].join(
    ':',
  );
}

function channel(id: string, encryptedSecret: string): ChannelRecord {
  return {
    id,
    name: id,
    protocol: 'openai',
    preset: null,
    baseUrl: 'http://127.0.0.1:9/v1',
    encryptedSecret,
    models: [],
    modelMapping: {},
    settings: {},
    priority: 0,
    weight: 1,
    status: 'enabled',
    createdAt: 0,
    updatedAt: 0,
  };
}

describe('resealChannelSecrets', () => {
  it('seals unsalted secrets again with a salt and leaves salted and unreadable ones alone', async () => {
    const box = createSecretBox(key);
    const salted = box.encrypt('sk-salted');
    const unreadable = sealV1('some-other-key-of-32-bytes-or-more-0000', 'sk-lost');
    const updates: [string, ChannelChanges][] = [];
    const store = { updateChannel: async (id: string, changes: ChannelChanges) => void updates.push([id, changes]) };
    const count = await resealChannelSecrets(
      store,
      [channel('old', sealV1(key, 'sk-old')), channel('new', salted), channel('lost', unreadable), channel('none', '')],
      box,
    );
    expect(count).toBe(1);
    expect(updates.map(([id]) => id)).toEqual(['old']);
    const resealed = updates[0]![1].encryptedSecret!;
    expect(resealed.startsWith('v2:')).toBe(true);
    expect(box.decrypt(resealed)).toBe('sk-old');
  });
});
