import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { createRequire } from 'node:module';
import { assertNever } from '../core/assert-never.js';
import { traceLogFields, traceLogMergeStrategy } from './trace-log-fields.js';

/** How the log is written: `pretty` coloured lines for people, `json` one object a line, `auto` pretty on a terminal. */
export type LogFormat = 'auto' | 'json' | 'pretty';

/** How createLogger picks its format and destination. */
export interface LoggerOutput {
  /** default `auto` */
  format?: LogFormat;
  /** whether the destination is a terminal, for `auto`; default: stdout's (or, with a destination, false) */
  isTerminal?: boolean;
}

/**
 * The gateway's structured logger; credentials are redacted wherever they appear in a logged object, and a line
 * written inside an active OpenTelemetry span carries its `trace_id` and `span_id`. It writes to `destination` when
 * given (the CLI logs to stderr, keeping stdout for its output), else to stdout: as JSON lines, or as coloured lines
 * through pino-pretty when the format is `pretty`, or `auto` on a terminal (a log collector always reads JSON).
 */
export function createLogger(level: string, destination?: DestinationStream, output: LoggerOutput = {}): Logger {
  const options: LoggerOptions = {
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
    mixin: traceLogFields,
    mixinMergeStrategy: traceLogMergeStrategy,
  };
  const isTerminal = output.isTerminal ?? (destination === undefined && process.stdout.isTTY);
  if (wantsPretty(output.format ?? 'auto', isTerminal)) {
    // Loaded only for pretty output: a module stays in memory for the process's life (test/architecture/startup-modules).
    const PinoPretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
    // In this thread, not a worker transport: a terminal reads few lines, and the order with other output is kept.
    const pretty = PinoPretty({
      colorize: isTerminal && PinoPretty.isColorSupported,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      destination: destination ?? 1,
      sync: true,
    });
    return pino(options, pretty);
  }
  return destination === undefined ? pino(options) : pino(options, destination);
}

/** True when lines are written pretty: forced, or `auto` on a terminal. */
function wantsPretty(format: LogFormat, isTerminal: boolean): boolean {
  switch (format) {
    case 'pretty':
      return true;
    case 'json':
      return false;
    case 'auto':
      return isTerminal;
    default:
      return assertNever(format, 'log format');
  }
}
