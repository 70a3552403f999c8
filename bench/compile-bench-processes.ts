// Compiles the measured processes (and every project file they import) to plain JavaScript before the run, so
// the gateway and the proxy run as users run them, under bare `node` (no tsx loader thread, no esbuild, no extra RSS).
// Each file is transpiled alone, which the project's `isolatedModules` and `verbatimModuleSyntax` make safe.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Inside node_modules so the compiled files resolve packages from the project's node_modules. */
export const compiledRoot = path.join(projectRoot, 'node_modules/.cache/gateway-bench');
const relativeImportPattern = /(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g;

/** Transpiles `entries` (paths relative to the project root) and their relative imports; returns the number of files. */
export function compileBenchProcesses(entries: string[]): number {
  const pending = entries.map((entry) => path.join(projectRoot, entry));
  const done = new Set<string>();
  // Package scope lookup stops at node_modules, so the compiled tree needs its own `"type": "module"`.
  mkdirSync(compiledRoot, { recursive: true });
  writeFileSync(path.join(compiledRoot, 'package.json'), '{ "type": "module" }\n');
  while (pending.length > 0) {
    const source = pending.pop() as string;
    if (done.has(source)) continue;
    done.add(source);
    const text = readFileSync(source, 'utf8');
    const output = ts.transpileModule(text, {
      fileName: source,
      // ES module output as written: transpileModule cannot see package.json, so NodeNext would fall back to CommonJS.
      compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
    });
    const target = compiledPathOf(source);
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, output.outputText);
    for (const match of text.matchAll(relativeImportPattern)) {
      const specifier = match[1] as string;
      pending.push(path.resolve(path.dirname(source), specifier.replace(/\.js$/, '.ts')));
    }
  }
  return done.size;
}

/** The compiled JavaScript of `bench/processes/<script>` (e.g. `simulator-process.ts`). */
export function compiledBenchProcess(script: string): string {
  return compiledPathOf(path.join(projectRoot, 'bench/processes', script));
}

/** Where the compiled JavaScript of a project `.ts` file lands. */
export function compiledPathOf(sourceFile: string): string {
  return path.join(compiledRoot, path.relative(projectRoot, sourceFile)).replace(/\.ts$/, '.js');
}
