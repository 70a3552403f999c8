// Reads a V8 .cpuprofile (from --cpu-prof) and lists where the time went: the top functions by self time,
// the gateway's own functions by inclusive time, and the share of each package.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  /** microseconds, on the same monotonic clock as process.hrtime */
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Time of one function or package, in milliseconds and as a share of the busy (non-idle) time. */
export interface ProfileEntry {
  name: string;
  milliseconds: number;
  share: number;
}

/** The summary of a profile, limited to a time window. */
export interface ProfileSummary {
  windowMs: number;
  busyMs: number;
  topSelf: ProfileEntry[];
  topGatewayInclusive: ProfileEntry[];
  byPackage: ProfileEntry[];
}

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The benchmark runs the gateway compiled into node_modules/.cache/gateway-bench (see compile-bench-processes.ts). */
const compiledRoot = path.join(projectRoot, 'node_modules/.cache/gateway-bench');

/** Summarizes the samples taken between `windowMicros.from` and `.to` (monotonic microseconds), or all of them. */
export function summarizeCpuProfile(
  file: string,
  windowMicros?: { from: number; to: number },
  top = 25,
): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const overlaps = windowMicros && windowMicros.from < profile.endTime && windowMicros.to > profile.startTime;
  const window = overlaps ? windowMicros : { from: profile.startTime, to: profile.endTime };

  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  const byPackage = new Map<string, number>();
  let timestamp = profile.startTime;
  let busyMicros = 0;
  profile.samples.forEach((nodeId, index) => {
    timestamp += profile.timeDeltas[index] ?? 0;
    // A sample stands for the time until the next one.
    const duration = profile.timeDeltas[index + 1] ?? 0;
    if (timestamp < window.from || timestamp > window.to) return;
    const node = nodes.get(nodeId);
    if (!node || node.callFrame.functionName === '(idle)') return;
    busyMicros += duration;
    add(self, functionKey(node), duration);
    add(byPackage, packageOf(node.callFrame.url, node.callFrame.functionName), duration);
    const seen = new Set<string>();
    for (let current: number | undefined = nodeId; current !== undefined; current = parents.get(current)) {
      const frame = nodes.get(current);
      if (!frame || !frame.callFrame.url.includes('/src/')) continue;
      const key = functionKey(frame);
      if (!seen.has(key)) add(inclusive, key, duration);
      seen.add(key);
    }
  });
  const entries = (map: Map<string, number>, limit: number): ProfileEntry[] =>
    [...map.entries()]
      .sort((left, right) => right[1] - left[1])
      .slice(0, limit)
      .map(([name, micros]) => ({
        name,
        milliseconds: micros / 1000,
        share: busyMicros > 0 ? micros / busyMicros : 0,
      }));
  return {
    windowMs: (window.to - window.from) / 1000,
    busyMs: busyMicros / 1000,
    topSelf: entries(self, top),
    topGatewayInclusive: entries(inclusive, top),
    byPackage: entries(byPackage, 20),
  };
}

/** The summary as plain text tables. */
export function formatProfileSummary(summary: ProfileSummary): string {
  const table = (title: string, entries: ProfileEntry[]) =>
    [
      title,
      ...entries.map(
        (entry) =>
          `${(entry.share * 100).toFixed(1).padStart(6)}%  ${entry.milliseconds.toFixed(0).padStart(7)} ms  ${entry.name}`,
      ),
    ].join('\n');
  return [
    `window ${summary.windowMs.toFixed(0)} ms, busy ${summary.busyMs.toFixed(0)} ms (shares are of busy time)`,
    table('\nby package:', summary.byPackage),
    table('\ntop functions by self time:', summary.topSelf),
    table('\ngateway functions (src/) by inclusive time:', summary.topGatewayInclusive),
  ].join('\n');
}

function functionKey(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  if (!url) return functionName || '(anonymous)';
  return `${functionName || '(anonymous)'}  ${shortUrl(url)}:${lineNumber + 1}`;
}

function shortUrl(url: string): string {
  const filePath = url.startsWith('file://') ? fileURLToPath(url) : url;
  if (filePath.startsWith(compiledRoot)) return path.relative(compiledRoot, filePath);
  return filePath.startsWith(projectRoot) ? path.relative(projectRoot, filePath) : filePath;
}

function packageOf(url: string, functionName: string): string {
  if (!url) return functionName.startsWith('(') ? functionName : '(V8 and native)';
  if (url.startsWith('node:')) return 'node: built-ins';
  if (shortUrl(url).startsWith('src/')) return 'gateway src/';
  const match = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (match) return match[1] as string;
  return shortUrl(url);
}

function add(map: Map<string, number>, key: string, value: number): void {
  map.set(key, (map.get(key) ?? 0) + value);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const file = process.argv[2];
  if (!file) throw new Error('usage: node --import tsx bench/summarize-cpu-profile.ts <file.cpuprofile>');
  process.stdout.write(`${formatProfileSummary(summarizeCpuProfile(file))}\n`);
}
