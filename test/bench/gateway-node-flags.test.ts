import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readGatewayNodeFlags } from '../../bench/read-gateway-node-flags.js';

describe('the gateway Node flags', () => {
  it('are the same for `npm start`, the `gateway` command and the benchmark', () => {
    const flags = readGatewayNodeFlags();
    expect(flags).toContain('--max-semi-space-size=4');
    const shebang = readFileSync('src/cli/main.ts', 'utf8').split('\n')[0];
    expect(shebang).toBe(`#!/usr/bin/env -S node ${flags.join(' ')}`);
  });
});
