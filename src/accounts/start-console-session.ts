import type { SignInStore } from '../storage/sign-in-store.js';
import type { ConsoleSessionRecord } from '../storage/sign-in-records.js';
import { generateConsoleToken, hashConsoleToken, sessionTokenPrefix } from './console-token.js';

/** Longest User-Agent kept with a session, in characters. */
const userAgentMaxLength = 512;

/** Starts a console session with a new token (every sign-in gets its own); only the token's SHA-256 is stored. */
export async function startConsoleSession(
  store: Pick<SignInStore, 'createSession'>,
  options: {
    userId: string;
    lifetimeHours: number;
    now: number;
    userAgent: string | undefined;
    clientIp: string | undefined;
  },
): Promise<{ token: string; session: ConsoleSessionRecord }> {
  const token = generateConsoleToken(sessionTokenPrefix);
  const session = await store.createSession({
    tokenHash: hashConsoleToken(token),
    userId: options.userId,
    expiresAt: options.now + options.lifetimeHours * 3_600_000,
    userAgent: options.userAgent?.slice(0, userAgentMaxLength) ?? null,
    clientIp: options.clientIp ?? null,
  });
  return { token, session };
}
