import { pino, type Logger } from 'pino';

/** The gateway's structured logger; credentials are redacted wherever they appear in a logged object. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'headers.authorization',
        '*.secret',
        'secret',
        '*.apiKey',
        'apiKey',
        '*.encryptedSecret',
        // Credentials that must never be logged even by mistake: the setup URL carries its token.
        'setupUrl',
        '*.setupUrl',
        'token',
        '*.token',
        'password',
        '*.password',
      ],
      censor: '[redacted]',
    },
  });
}
