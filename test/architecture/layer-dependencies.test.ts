import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Who may import whom (docs/ARCHITECTURE.md, "Layers"): read from the source's own import statements.
const sourceRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src');

/** Every TypeScript file under src/, as a path relative to src/ (e.g. `dispatch/attempt-channel.ts`). */
function listSourceFiles(directory = sourceRoot): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const fullPath = path.join(directory, entry.name);
    if (entry.isDirectory()) return listSourceFiles(fullPath);
    return entry.name.endsWith('.ts') ? [path.relative(sourceRoot, fullPath).split(path.sep).join('/')] : [];
  });
}

const importPattern = /^\s*(?:import|export)\s[^;]*?\sfrom\s+'(\.{1,2}\/[^']+)'/gm;

/** The src/-relative files one file imports (relative imports only; `.js` specifiers name `.ts` files). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(sourceRoot, file), 'utf8');
  return [...text.matchAll(importPattern)].map((match) => path.posix.normalize(path.posix.join(path.posix.dirname(file), match[1] ?? '')).replace(/\.js$/, '.ts'));
}

const files = listSourceFiles();
/** every import, types included: a type-only cycle still ties two files' designs together */
const importGraph = new Map(files.map((file) => [file, importsOf(file)]));
const layerOf = (file: string): string => file.split('/')[0] ?? '';

/** `file -> import` pairs where a file in one of `from` imports a file in one of `forbidden`. */
function forbiddenImports(from: readonly string[], forbidden: readonly string[]): string[] {
  return [...importGraph].flatMap(([file, imports]) =>
    from.includes(layerOf(file)) ? imports.filter((target) => forbidden.includes(layerOf(target))).map((target) => `${file} -> ${target}`) : [],
  );
}

/** One import cycle (types included) among the given files, as a path that returns to its start; undefined when there is none. */
function findCycle(inScope: (file: string) => boolean): string[] | undefined {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): string[] | undefined => {
    if (state.get(file) === 'done') return undefined;
    if (state.get(file) === 'visiting') return [...stack.slice(stack.indexOf(file)), file];
    state.set(file, 'visiting');
    stack.push(file);
    for (const target of importGraph.get(file) ?? []) {
      if (!inScope(target)) continue;
      const cycle = visit(target);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(file, 'done');
    return undefined;
  };
  for (const file of files) {
    if (!inScope(file)) continue;
    const cycle = visit(file);
    if (cycle) return cycle;
  }
  return undefined;
}

describe('layer dependencies', () => {
  it('reads the imports of the source tree (the scan itself works)', () => {
    expect(importGraph.get('server/forward-metered.ts')).toContain('dispatch/dispatch-to-channels.ts');
  });

  it('keeps providers and protocols away from the HTTP server, dispatch, storage and billing', () => {
    expect(forbiddenImports(['providers', 'protocols'], ['server', 'dispatch', 'storage', 'billing'])).toEqual([]);
  });

  it('keeps dispatch away from the HTTP server, storage and billing: it writes to a ClientSink', () => {
    expect(forbiddenImports(['dispatch'], ['server', 'storage', 'billing'])).toEqual([]);
  });

  it('keeps the task layer above storage, billing and dispatch: only server and runtime use it, and it never writes HTTP responses', () => {
    expect(forbiddenImports(['core', 'providers', 'protocols', 'dispatch', 'routing', 'storage', 'billing', 'config', 'accounts', 'observability'], ['tasks'])).toEqual([]);
    expect(forbiddenImports(['tasks'], ['server'])).toEqual([]);
  });

  it('keeps core free of every other layer', () => {
    const layers = [...new Set(files.map(layerOf))].filter((layer) => layer !== 'core');
    expect(forbiddenImports(['core'], layers)).toEqual([]);
  });

  it('keeps worker-threads (the worker script bundler every layer may use) free of every other layer', () => {
    const layers = [...new Set(files.map(layerOf))].filter((layer) => layer !== 'worker-threads');
    expect(forbiddenImports(['worker-threads'], layers)).toEqual([]);
  });

  it('has no import cycle on the request path: server, dispatch, providers, protocols and core', () => {
    const scope = new Set(['server', 'dispatch', 'providers', 'protocols', 'core']);
    // The console's JSON API routes share one context type with their registrar (a type-only cycle outside the request path).
    const consoleApiRoutes = /^server\/routes\/api-/;
    expect(findCycle((file) => scope.has(layerOf(file)) && !consoleApiRoutes.test(file))).toBeUndefined();
  });

  it('finds a cycle when there is one (the detector itself works)', () => {
    importGraph.set('dispatch/client-stream-writer.ts', ['dispatch/attempt-channel.ts']);
    try {
      expect(findCycle((file) => layerOf(file) === 'dispatch')).toContain('dispatch/attempt-channel.ts');
    } finally {
      importGraph.set('dispatch/client-stream-writer.ts', importsOf('dispatch/client-stream-writer.ts'));
    }
  });
});
