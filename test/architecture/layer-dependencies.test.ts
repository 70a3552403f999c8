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

const importPattern = /^\s*(?:import|export)\s([^;]*?)\sfrom\s+'(\.{1,2}\/[^']+)'/gm;

/** The src/-relative files one file imports (relative imports only; `.js` specifiers name `.ts` files). */
function importsOf(file: string): string[] {
  const text = readFileSync(path.join(sourceRoot, file), 'utf8');
  return importStatementsOf(text, file).map((statement) => statement.target);
}

/** One relative import of a file: the src/-relative file it names, and whether it imports types only. */
interface ImportStatement {
  target: string;
  typeOnly: boolean;
}

function importStatementsOf(text: string, file: string): ImportStatement[] {
  return [...text.matchAll(importPattern)].map((match) => ({
    target: path.posix.normalize(path.posix.join(path.posix.dirname(file), match[2] ?? '')).replace(/\.js$/, '.ts'),
    typeOnly: /^(?:import|export)\s+type\s/.test(match[0].trim()),
  }));
}

const files = listSourceFiles();
/** every import, types included: a type-only cycle still ties two files' designs together */
const importGraph = new Map(files.map((file) => [file, importsOf(file)]));
const layerOf = (file: string): string => file.split('/')[0] ?? '';

/** `file -> import` pairs where a file in one of `from` imports a file in one of `forbidden`. */
function forbiddenImports(from: readonly string[], forbidden: readonly string[]): string[] {
  return [...importGraph].flatMap(([file, imports]) =>
    from.includes(layerOf(file))
      ? imports.filter((target) => forbidden.includes(layerOf(target))).map((target) => `${file} -> ${target}`)
      : [],
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

/** What each layer of DESIGN.md §3 may import besides itself: layers point inward, storage serves every layer above core. */
const allowedLayers: Readonly<Record<string, readonly string[]>> = {
  core: [],
  'worker-threads': [],
  config: ['core'],
  observability: ['core'],
  storage: ['core', 'worker-threads'],
  providers: ['core'],
  protocols: ['core'],
  routing: ['core', 'config', 'observability', 'storage', 'providers', 'protocols'],
  // Billing reads typed usage handed over by the edges that read vendor answers, never vendor text (ADR 0020), and the
  // typed estimate a client protocol made of a request, never the request (ADR 0021).
  billing: ['core', 'config', 'observability', 'storage', 'worker-threads'],
  dispatch: ['core', 'config', 'observability', 'providers', 'protocols', 'routing'],
  accounts: ['core', 'config', 'observability', 'storage', 'providers', 'protocols', 'routing', 'billing'],
  tasks: ['core', 'config', 'observability', 'storage', 'providers', 'protocols', 'routing', 'billing'],
  server: [
    'core',
    'config',
    'observability',
    'storage',
    'providers',
    'protocols',
    'routing',
    'billing',
    'dispatch',
    'accounts',
    'tasks',
    'worker-threads',
  ],
  runtime: [
    'core',
    'config',
    'observability',
    'storage',
    'providers',
    'protocols',
    'routing',
    'billing',
    'dispatch',
    'accounts',
    'tasks',
    'server',
    'worker-threads',
  ],
  cli: [
    'core',
    'config',
    'observability',
    'storage',
    'providers',
    'protocols',
    'routing',
    'billing',
    'dispatch',
    'accounts',
    'tasks',
    'server',
    'runtime',
    'worker-threads',
  ],
};

/** The files of a client protocol that rewrite its body for a vendor speaking the same protocol (ADR 0022). */
const passThroughRewrite = /^protocols\/[a-z-]+\/[a-z-]+-pass-through\.ts$/;

/**
 * Imports across the layering that stay, each with its reason; `typeOnly` ones may import types and nothing else, and
 * `files` (when set) names the only files of the layer the exception is for.
 */
const allowedExceptions: readonly {
  from: string;
  to: string;
  typeOnly: boolean;
  files?: RegExp;
  reason: string;
}[] = [
  // The billing store persists billing's price and pricing records; the record types are declared once, in billing.
  // Prices are read off catalog models, and holds are taken for the key principal routing resolved (a sibling layer).
  { from: 'billing', to: 'routing', typeOnly: true, reason: 'catalog models and key principals' },
  // The video poller reaches vendors through dispatch's video sender and redaction, the one code that talks to vendors.
  { from: 'tasks', to: 'dispatch', typeOnly: false, reason: 'video vendor requests' },
  // A client protocol's checks and pass-through rewrite read the channel and the catalog model they are planned for
  // (ADR 0022); types only, so routing's code stays out of the protocols.
  { from: 'protocols', to: 'routing', typeOnly: true, reason: 'channel and catalog model types' },
  // A client protocol's pass-through rewrite (its body to a vendor that speaks the same protocol, ADR 0022) implements
  // dispatch's PassThroughProtocol with dispatch's relay helpers (secret redaction, stream errors), and reads the
  // vendor's answer with that vendor's own failure mapping and usage reader. Only the pass-through files may.
  {
    from: 'protocols',
    to: 'dispatch',
    typeOnly: false,
    files: passThroughRewrite,
    reason: 'pass-through rewrites implement PassThroughProtocol',
  },
  {
    from: 'protocols',
    to: 'providers',
    typeOnly: false,
    files: passThroughRewrite,
    reason: "a pass-through rewrite reads the vendor's own answer",
  },
];

/** The imports of one file (src/-relative, with its text) that the layering does not allow, as `file -> target`. */
function layeringViolations(file: string, text: string): string[] {
  const from = layerOf(file);
  return importStatementsOf(text, file)
    .filter(({ target, typeOnly }) => {
      const to = layerOf(target);
      if (to === from || allowedLayers[from]?.includes(to)) return false;
      const exception = allowedExceptions.find(
        (entry) => entry.from === from && entry.to === to && (entry.files === undefined || entry.files.test(file)),
      );
      return exception === undefined || (exception.typeOnly && !typeOnly);
    })
    .map(({ target }) => `${file} -> ${target}`);
}

/** Every import of src/ against the layering; unit tests beside the code are left out, as they may wire a layer above. */
function importsAgainstTheLayering(): string[] {
  return files
    .filter((file) => !file.endsWith('.test.ts'))
    .flatMap((file) => layeringViolations(file, readFileSync(path.join(sourceRoot, file), 'utf8')));
}

describe('layer dependencies', () => {
  it('reads the imports of the source tree (the scan itself works)', () => {
    expect(importGraph.get('server/forward-metered.ts')).toContain('dispatch/dispatch-to-channels.ts');
  });

  it('places every folder of src/ in the layering', () => {
    expect(
      [...new Set(files.map(layerOf))].filter((layer) => !layer.endsWith('.ts') && allowedLayers[layer] === undefined),
    ).toEqual([]);
  });

  it('keeps every folder pair of the layering one-way (unit tests beside the code may wire a layer above)', () => {
    expect(importsAgainstTheLayering()).toEqual([]);
  });

  it('keeps each allowed exception in use, so a fixed one leaves the list', () => {
    const used = allowedExceptions.filter(({ from, to, files: only }) =>
      [...importGraph].some(
        ([file, imports]) =>
          !file.endsWith('.test.ts') &&
          layerOf(file) === from &&
          (only === undefined || only.test(file)) &&
          imports.some((target) => layerOf(target) === to),
      ),
    );
    expect(used).toEqual(allowedExceptions);
  });

  it('finds an import against the layering when there is one (the check itself works)', () => {
    expect(
      layeringViolations(
        'observability/probe.ts',
        "import { ChannelHealth } from '../routing/channel-health/channel-health.js';",
      ),
    ).toEqual(['observability/probe.ts -> routing/channel-health/channel-health.ts']);
    expect(
      layeringViolations('billing/probe.ts', "import type { CatalogModel } from '../routing/catalog-model.js';"),
    ).toEqual([]);
    expect(
      layeringViolations(
        'billing/probe.ts',
        "import { ChannelHealth } from '../routing/channel-health/channel-health.js';",
      ),
    ).toEqual(['billing/probe.ts -> routing/channel-health/channel-health.ts']);
    // Storage keeps its own price records: not even a type comes from billing.
    expect(
      layeringViolations('storage/probe.ts', "import type { ModelPrice } from '../billing/model-price.js';"),
    ).toEqual(['storage/probe.ts -> billing/model-price.ts']);
  });

  it('keeps providers and protocols away from the HTTP server, dispatch, storage and billing', () => {
    expect(forbiddenImports(['providers', 'protocols'], ['server', 'storage', 'billing'])).toEqual([]);
    // Dispatch only for a protocol's pass-through rewrite (the exception above), and never its failover loop or attempt.
    const intoDispatch = forbiddenImports(['providers', 'protocols'], ['dispatch']);
    expect(intoDispatch.filter((pair) => !passThroughRewrite.test(pair.split(' -> ')[0] ?? ''))).toEqual([]);
    expect(intoDispatch.filter((pair) => /dispatch-to-channels|attempt-channel|try-channels/.test(pair))).toEqual([]);
  });

  it('finds the pass-through exception only for pass-through rewrites (the file rule itself works)', () => {
    const relayImport = "import { unreadableStreamEventError } from '../../dispatch/relay-stream-errors.js';";
    expect(layeringViolations('protocols/anthropic-messages/messages-pass-through.ts', relayImport)).toEqual([]);
    expect(layeringViolations('protocols/anthropic-messages/encode-message.ts', relayImport)).toEqual([
      'protocols/anthropic-messages/encode-message.ts -> dispatch/relay-stream-errors.ts',
    ]);
  });

  it('keeps requests out of billing: it reads the estimate a client protocol made, never a request type (ADR 0021)', () => {
    const requestTypes = new Set(['core/canonical/canonical-request.ts', 'core/openai-chat-request.ts']);
    const requestImports = [...importGraph].flatMap(([file, imports]) =>
      layerOf(file) === 'billing' && !file.endsWith('.test.ts')
        ? imports
            .filter((target) => requestTypes.has(target) || layerOf(target) === 'protocols')
            .map((target) => `${file} -> ${target}`)
        : [],
    );
    expect(requestImports).toEqual([]);
  });

  it('keeps dispatch away from the HTTP server, storage and billing: it writes to a ClientSink', () => {
    expect(forbiddenImports(['dispatch'], ['server', 'storage', 'billing'])).toEqual([]);
  });

  it('keeps the task layer above storage, billing and dispatch: only server and runtime use it, and it never writes HTTP responses', () => {
    expect(
      forbiddenImports(
        [
          'core',
          'providers',
          'protocols',
          'dispatch',
          'routing',
          'storage',
          'billing',
          'config',
          'accounts',
          'observability',
        ],
        ['tasks'],
      ),
    ).toEqual([]);
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
