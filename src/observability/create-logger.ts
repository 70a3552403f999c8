import { pino, type DestinationStream, type Logger } from 'pino';

/**
 * The gateway's structured logger; credentials are redacted wherever they appear in a logged object. It writes to
 * `destination` when given (the CLI logs to stderr, keeping stdout for its output), else to stdout.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
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
  };
  return destination === undefined ? pino(options) : pino(options, destination);
}
