import type { GatewayStore } from '../storage/gateway-store.js';
import type { ChannelRecord } from '../storage/store-records.js';
import { isUnsaltedSealedSecret, type SecretBox } from './secret-box.js';

/**
 * Seals again under `secretBox`, salted, every channel secret an older gateway sealed unsalted (`v1:`) and every one
 * only `previousBox` (GATEWAY_PREVIOUS_SECRET_KEY) opens; one neither opens stays as it is (routing leaves that
 * channel out and says so). Returns how many were sealed again.
 */
export async function resealChannelSecrets(
  store: Pick<GatewayStore, 'updateChannel'>,
  channels: readonly ChannelRecord[],
  secretBox: SecretBox,
  previousBox?: SecretBox,
): Promise<number> {
  let resealed = 0;
  for (const channel of channels) {
    if (channel.encryptedSecret === '') continue;
    const current = openOrUndefined(secretBox, channel.encryptedSecret);
    const plainText =
      current === undefined
        ? previousBox && openOrUndefined(previousBox, channel.encryptedSecret)
        : isUnsaltedSealedSecret(channel.encryptedSecret)
          ? current
          : undefined;
    if (plainText === undefined) continue;
    await store.updateChannel(channel.id, { encryptedSecret: secretBox.encrypt(plainText) });
    resealed += 1;
  }
  return resealed;
}

function openOrUndefined(secretBox: SecretBox, sealed: string): string | undefined {
  try {
    return secretBox.decrypt(sealed);
  } catch {
    return undefined;
  }
}
