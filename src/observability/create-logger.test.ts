import { Writable } from 'node:stream';
import { context, trace, TraceFlags } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { afterEach, describe, expect, it } from 'vitest';
import { readLogFormat } from '../config/read-log-format.js';
import { createLogger } from './create-logger.js';

/** A destination that keeps every chunk written, as text. */
function captureLines(): { destination: Writable; lines: string[] } {
  const lines: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString());
      done();
    },
  });
  return { destination, lines };
}

const traceId = '0af7651916cd43dd8448eb211c80319c';
const spanId = 'b7ad6b7169203331';

/** Runs `work` inside an active (sampled) span, with a context manager registered as a tracing setup would. */
function insideSpan(work: () => void): void {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const span = trace.wrapSpanContext({ traceId, spanId, traceFlags: TraceFlags.SAMPLED });
  context.with(trace.setSpan(context.active(), span), work);
}

afterEach(() => {
  context.disable();
});

describe('createLogger', () => {
  it('puts the active span’s trace_id and span_id in every JSON line, a child’s too, and nothing outside a span', () => {
    const { destination, lines } = captureLines();
    const logger = createLogger('info', destination, { format: 'json' });
    insideSpan(() => {
      logger.info({ secret: 'sk-live' }, 'inside a span');
      logger.child({ reqId: 'req-1' }).warn('a request line');
    });
    logger.info('outside any span');
    const [inside, child, outside] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(inside).toMatchObject({ trace_id: traceId, span_id: spanId, trace_flags: '01', secret: '[redacted]' });
    expect(child).toMatchObject({ trace_id: traceId, span_id: spanId, reqId: 'req-1', msg: 'a request line' });
    expect(outside).not.toHaveProperty('trace_id');
    expect(outside).not.toHaveProperty('span_id');
    expect(outside).toMatchObject({ msg: 'outside any span' });
  });

  it('lets a line’s own fields win over the trace fields', () => {
    const { destination, lines } = captureLines();
    const logger = createLogger('info', destination, { format: 'json' });
    insideSpan(() => logger.info({ trace_id: 'from-the-caller' }, 'explicit'));
    expect(JSON.parse(lines[0]!)).toMatchObject({ trace_id: 'from-the-caller', span_id: spanId });
  });

  it('writes pretty lines when forced or on a terminal, JSON otherwise', () => {
    const pretty = captureLines();
    createLogger('info', pretty.destination, { format: 'pretty' }).info({ secret: 'sk-live' }, 'for people');
    expect(pretty.lines.join('')).toMatch(/INFO.*for people/);
    expect(pretty.lines.join('')).toContain('[redacted]');
    expect(() => JSON.parse(pretty.lines[0]!) as unknown).toThrow();

    const terminal = captureLines();
    createLogger('info', terminal.destination, { isTerminal: true }).info('on a terminal');
    expect(terminal.lines.join('')).toMatch(/INFO.*on a terminal/);

    const piped = captureLines();
    createLogger('info', piped.destination, { isTerminal: false }).info('to a collector');
    expect(JSON.parse(piped.lines[0]!)).toMatchObject({ level: 30, msg: 'to a collector' });

    const forcedJson = captureLines();
    createLogger('info', forcedJson.destination, { format: 'json', isTerminal: true }).info('json anyway');
    expect(JSON.parse(forcedJson.lines[0]!)).toMatchObject({ msg: 'json anyway' });
  });
});

describe('readLogFormat', () => {
  it('reads GATEWAY_LOG_FORMAT and refuses anything else', () => {
    expect(readLogFormat({})).toBe('auto');
    expect(readLogFormat({ GATEWAY_LOG_FORMAT: 'PRETTY' })).toBe('pretty');
    expect(readLogFormat({ GATEWAY_LOG_FORMAT: 'json' })).toBe('json');
    expect(() => readLogFormat({ GATEWAY_LOG_FORMAT: 'xml' })).toThrow(/GATEWAY_LOG_FORMAT/);
  });
});
