import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { resealChannelSecrets } from '../accounts/reseal-channel-secrets.js';
import { createSecretBox, resolveSecretPassphrase, secretKeySource, type SecretBox } from '../accounts/secret-box.js';
import { secretKeyCheckValue, verifySecretKey } from '../accounts/verify-secret-key.js';
import type { DatabaseSchema } from '../storage/database-schema.js';
import type { GatewayStore } from '../storage/gateway-store.js';
import { createSecretKeyCheckStore } from '../storage/kysely-secret-key-check-store.js';
import type { ChannelRecord } from '../storage/store-records.js';

/** What opening the secret box at start needs. */
export interface SecretBoxStart {
  config: { secretKey: string | undefined; dataDirectory: string; previousSecretKey?: string | undefined };
  database: Kysely<DatabaseSchema>;
  store: Pick<GatewayStore, 'listChannels' | 'updateChannel'>;
  logger: Logger;
  /** Unix milliseconds */
  now: number;
}

/**
 * The gateway's secret box, once its key is long enough and matches the database's (else it throws with the reason);
 * channel secrets an older gateway sealed unsalted, or sealed under GATEWAY_PREVIOUS_SECRET_KEY, are sealed again.
 */
export async function openVerifiedSecretBox(start: SecretBoxStart): Promise<SecretBox> {
  const keyMaterial = resolveSecretPassphrase(start.config);
  const secretBox = createSecretBox(keyMaterial);
  const checkStore = createSecretKeyCheckStore(start.database);
  const previousKey = start.config.previousSecretKey;
  if (previousKey !== undefined && previousKey !== '') {
    // A rekey: what the previous key (of any length, as older gateways took it) sealed moves to the new key first.
    const channelsBefore = await start.store.listChannels();
    const moved = await resealChannelSecrets(start.store, channelsBefore, secretBox, createSecretBox(previousKey));
    const replaced = await checkStore.replace(
      secretKeyCheckValue(previousKey),
      secretKeyCheckValue(keyMaterial),
      start.now,
    );
    start.logger.warn(
      { channels: moved, checkValueReplaced: replaced },
      'GATEWAY_PREVIOUS_SECRET_KEY: channel secrets sealed again under the new secret key; remove the setting now',
    );
  }
  let channels: ChannelRecord[] | undefined;
  const loadChannels = async (): Promise<ChannelRecord[]> => (channels ??= await start.store.listChannels());
  const outcome = await verifySecretKey({
    store: checkStore,
    keyMaterial,
    keySource: secretKeySource(start.config),
    secretBox,
    sealedSecrets: async () =>
      (await loadChannels()).map((channel) => channel.encryptedSecret).filter((sealed) => sealed !== ''),
    now: start.now,
  });
  if (outcome === 'recorded') start.logger.info('recorded the check value of the secret key in the database');
  const resealed = await resealChannelSecrets(start.store, await loadChannels(), secretBox);
  if (resealed > 0) start.logger.info({ channels: resealed }, 'sealed channel secrets again with a salted key');
  return secretBox;
}
