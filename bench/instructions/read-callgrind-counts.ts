// Sums the instructions callgrind counted in a process's dumps, and the part spent in V8's compilers and parser.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Instructions counted while collection was on. */
export interface CallgrindCounts {
  total: number;
  /** of `total`, in V8's optimising compilers, interpreter's bytecode generator and parser: work that depends on when V8 decides to compile, not on what a request does */
  compilers: number;
}

/** V8's compiler, parser and bytecode generator functions, by their C++ names in node's symbols. */
const compilerFunctionPattern =
  /v8::internal::(compiler|maglev|turboshaft|interpreter|wasm)::|v8::internal::(Compiler|Parser|Scanner|PreParser|ParserBase|OptimizingCompileDispatcher)|v8::internal::Compile/;

/** Reads every `callgrind.out.*` dump in `directory` (one process, several dumps), with callgrind_annotate for the functions. */
export function readCallgrindCounts(directory: string): CallgrindCounts {
  let total = 0;
  let compilers = 0;
  for (const file of readdirSync(directory)) {
    if (!file.startsWith('callgrind.out')) continue;
    const dump = path.join(directory, file);
    const totals = /^totals: (\d+)/m.exec(readFileSync(dump, 'utf8'));
    if (!totals || Number(totals[1]) === 0) continue;
    total += Number(totals[1]);
    const annotated = execFileSync('callgrind_annotate', ['--threshold=100', dump], {
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
    for (const line of annotated.split('\n')) {
      // "  1,234,567 ( 1.23%)  ???:v8::internal::compiler::GraphReducer::ReduceTop() [/usr/bin/node]"
      const match = /^\s*([\d,]+) \([^)]*\)\s+(.*)$/.exec(line);
      if (!match || match[2]?.includes('PROGRAM TOTALS')) continue;
      if (compilerFunctionPattern.test(match[2] ?? '')) compilers += Number(match[1]?.replaceAll(',', ''));
    }
  }
  return { total, compilers };
}
