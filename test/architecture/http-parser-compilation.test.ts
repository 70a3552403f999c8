// undici parses HTTP answers with llhttp compiled to WebAssembly. V8 first compiles it with Liftoff, its baseline
// compiler, then, once the parser is hot, recompiles its state machine with TurboFan: about 90 ms of CPU and a 30 MB
// compilation zone in the middle of the load, which glibc keeps (ADR 0015). The gateway's launch flags keep it on
// Liftoff; this test makes enough requests through undici under those flags for V8 to tier up, and reads V8's own
// trace of what it compiled.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { readGatewayLaunch } from '../../bench/read-gateway-launch.js';

const projectRoot = path.resolve(import.meta.dirname, '../..');
// Without the flag, V8 recompiled the parser with TurboFan within 300 requests.
const requestCount = 2_000;
const makeRequests = `
import { createServer } from 'node:http';
import { Agent, request } from 'undici';
const server = createServer((_request, response) => response.end('ok')).listen(0, '127.0.0.1');
await new Promise((resolve) => server.once('listening', resolve));
const dispatcher = new Agent();
for (let index = 0; index < ${requestCount}; index++) {
  const answer = await request('http://127.0.0.1:' + server.address().port + '/', { dispatcher });
  await answer.body.text();
}
await dispatcher.close();
server.close();
`;

/** The lines of V8's trace that name a compiled WebAssembly function, under `nodeFlags`. */
async function compiledWasmFunctions(nodeFlags: string[]): Promise<string[]> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [...nodeFlags, '--trace-wasm-compilation-times', '--input-type=module', '--eval', makeRequests],
    {
      cwd: projectRoot,
      timeout: 60_000,
    },
  );
  return stdout.split('\n').filter((line) => line.startsWith('Compiled function'));
}

describe("undici's HTTP parser under the gateway's launch flags", () => {
  it('stays on the baseline compiler however hot it gets', async () => {
    const compiled = await compiledWasmFunctions(readGatewayLaunch().nodeFlags);
    expect(compiled.filter((line) => line.includes('using Liftoff')).length).toBeGreaterThan(0);
    expect(compiled.filter((line) => line.includes('using TurboFan'))).toEqual([]);
  }, 90_000);
});
