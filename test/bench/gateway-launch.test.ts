import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readGatewayLaunch } from '../../bench/read-gateway-launch.js';

describe('the gateway launch', () => {
  it('is the same for `npm start`, the `gateway` command and the benchmark', () => {
    const { environment, nodeFlags } = readGatewayLaunch();
    expect(nodeFlags).toContain('--max-semi-space-size=4');
    expect(environment).toEqual({ MALLOC_ARENA_MAX: '2' });
    const shebang = readFileSync('src/cli/main.ts', 'utf8').split('\n')[0];
    const assignments = Object.entries(environment).map(([name, value]) => `${name}=${value}`);
    expect(shebang).toBe(`#!/usr/bin/env -S ${[...assignments, 'node', ...nodeFlags].join(' ')}`);
  });
});
