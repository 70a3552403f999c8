import type { SecretBox } from '../../accounts/secret-box.js';
import type { ChannelRecord } from '../../storage/store-records.js';

// Secrets shorter than this show no characters at all: four of a short secret give too much away.
const shortestSecretWithHint = 16;

/**
 * A channel as the /api shows it: never the secret, only whether one is stored (`secretSet`), whether it decrypts
 * with this gateway's key (`secretReadable`) and, for long secrets, its last 4 characters (`secretLast4`).
 */
export function presentChannel(channel: ChannelRecord, secretBox: SecretBox) {
  const { encryptedSecret, ...visible } = channel;
  let secret: string | undefined;
  try {
    secret = encryptedSecret ? secretBox.decrypt(encryptedSecret) : undefined;
  } catch {
    secret = undefined;
  }
  return {
    ...visible,
    secretSet: encryptedSecret !== '',
    secretReadable: secret !== undefined,
    secretLast4: secret !== undefined && secret.length >= shortestSecretWithHint ? secret.slice(-4) : null,
  };
}
