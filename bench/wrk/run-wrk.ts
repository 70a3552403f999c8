// Runs `wrk -t1` pinned to the load core with a Lua script that POSTs one body, and returns what it counted.
// The script's done() prints wrk's own summary as one JSON line, so nothing depends on wrk's text layout.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseWrkResult, type WrkResult } from './parse-wrk-result.js';

const execFileAsync = promisify(execFile);

/** One wrk run. */
export interface WrkRun {
  /** full URL, e.g. `http://127.0.0.1:PORT/v1/chat/completions` */
  url: string;
  headers: Record<string, string>;
  body: string;
  connections: number;
  durationSeconds: number;
  /** core to pin wrk to with taskset; undefined runs it unpinned */
  core: string | undefined;
}

const resultMarker = 'WRK_RESULT ';

/** The Lua script: the method, headers and body of every request, and a done() that prints the summary as JSON. */
export function createWrkScript(headers: Record<string, string>, bodyFile: string): string {
  const headerLines = Object.entries(headers).map(
    ([name, value]) => `wrk.headers[${JSON.stringify(name)}] = ${JSON.stringify(value)}`,
  );
  return [
    'wrk.method = "POST"',
    ...headerLines,
    `local file = assert(io.open(${JSON.stringify(bodyFile)}, "rb"))`,
    'wrk.body = file:read("*a")',
    'file:close()',
    'function done(summary, latency, requests)',
    '  local e = summary.errors',
    `  io.write(string.format('${resultMarker}{"requests":%d,"durationMicros":%d,"bytes":%d,` +
      `"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},` +
      `"latencyMicros":{"p50":%d,"p99":%d,"max":%d}}\\n',`,
    '    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,',
    '    latency:percentile(50), latency:percentile(99), latency.max))',
    'end',
    '',
  ].join('\n');
}

/** Runs wrk and returns its counts; throws when wrk fails or prints no summary. */
export async function runWrk(run: WrkRun): Promise<WrkResult> {
  const folder = mkdtempSync(path.join(tmpdir(), 'gateway-bench-wrk-'));
  try {
    const bodyFile = path.join(folder, 'body.json');
    const scriptFile = path.join(folder, 'post.lua');
    writeFileSync(bodyFile, run.body);
    writeFileSync(scriptFile, createWrkScript(run.headers, bodyFile));
    const wrkArguments = [
      '-t1',
      `-c${run.connections}`,
      `-d${run.durationSeconds}s`,
      '--timeout',
      '10s',
      '-s',
      scriptFile,
      run.url,
    ];
    const [command, commandArguments] =
      run.core === undefined ? ['wrk', wrkArguments] : ['taskset', ['-c', run.core, 'wrk', ...wrkArguments]];
    const { stdout } = await execFileAsync(command, commandArguments, { encoding: 'utf8', maxBuffer: 1024 * 1024 });
    return parseWrkResult(stdout, resultMarker);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
