import { describe, expect, it } from 'vitest';
import { selectWorkerExecArgv } from './select-worker-exec-argv.js';

describe('selectWorkerExecArgv', () => {
  it('keeps memory flags and drops loaders, inline code and profile outputs with their values', () => {
    const execArgv = ['--max-semi-space-size=4', '--import', 'tsx', '--input-type=module', '--eval', 'code()', '--cpu-prof', '--cpu-prof-dir', '/tmp/results', '--cpu-prof-name=gateway.cpuprofile', '--expose-gc', '-r', 'hook.cjs'];
    expect(selectWorkerExecArgv(execArgv)).toEqual(['--max-semi-space-size=4', '--expose-gc']);
  });
});
