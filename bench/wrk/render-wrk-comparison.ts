// The wrk comparison as markdown, in the layout of issue 13's table, followed by the targets.
import type { Spread } from '../statistics.js';
import { comparisonPathNames, labelOf } from './comparison-paths.js';
import type { ComparisonSummary, PathSummary } from './summarize-wrk-comparison.js';

/** The header block, the table and the targets; `notes` become bullet lines above the table. */
export function renderWrkComparison(summary: ComparisonSummary, notes: string[]): string {
  const lines = notes.map((note) => `- ${note}`);
  lines.push(
    '',
    '| path | non-streamed req/s | CPU per request | streamed (burst) req/s | 50 paced streams (22 events, 5 ms apart): CPU per stream / p99 / peak RSS | time to first event, concurrency 1: p50 / p99 (added vs direct) |',
    '|---|---|---|---|---|---|',
  );
  for (const name of comparisonPathNames) {
    const path = summary.paths[name];
    const ratio =
      name === 'gateway'
        ? ` (${summary.gatewayToProxy.median.toFixed(2)}× proxy, ${summary.gatewayToPortkey.median.toFixed(1)}× Portkey)`
        : '';
    const billing =
      name === 'unbilled'
        ? ` (billing: ${(summary.billingCpuPerRequestMs.median * 1000).toFixed(0)} µs, ${summary.billingCpuToProxy.median.toFixed(2)}× the proxy's)`
        : '';
    const cells = [
      labelOf(name),
      `${formatRequestRate(path.requestsPerSecond)}${ratio}`,
      `${formatOptional(path.cpuPerRequestMs, (value) => `${value.toFixed(3)} ms`)}${billing}`,
      formatRequestRate(path.burstRequestsPerSecond),
      formatPaced(path),
      formatFirstEvent(path, name === 'direct'),
    ];
    lines.push(`| ${cells.join(' | ')} |`);
  }
  const met = summary.targets.filter((target) => target.passed).length;
  lines.push(
    '',
    `Targets (our gateway): ${met} of ${summary.targets.length} met`,
    '',
    '| target | goal | measured | verdict |',
    '|---|---|---|---|',
  );
  for (const target of summary.targets) {
    lines.push(
      `| ${target.target} | ${target.goal} | ${target.measured.toFixed(2)} ${target.unit} | ${target.passed ? 'PASS' : 'FAIL'} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** Requests per second with a thousands separator, e.g. `6,070`. */
export function formatRequestRate(spread: Spread): string {
  return Math.round(spread.median).toLocaleString('en-US');
}

function formatPaced(path: PathSummary): string {
  const cpu = formatOptional(path.pacedCpuPerStreamMs, (value) => `${value.toFixed(2)} ms`);
  const rss = formatOptional(path.pacedPeakRssBytes, (value) => `${Math.round(value / 1e6)} MB`);
  return `${cpu} / ${Math.round(path.pacedP99Ms.median)} ms / ${rss}`;
}

function formatFirstEvent(path: PathSummary, isDirect: boolean): string {
  const measured = `${path.firstEventP50Ms.median.toFixed(2)} / ${path.firstEventP99Ms.median.toFixed(2)} ms`;
  if (isDirect) return measured;
  return `${measured} (+${path.addedFirstEventP50Ms.median.toFixed(2)} / +${path.addedFirstEventP99Ms.median.toFixed(2)})`;
}

function formatOptional(spread: Spread | undefined, format: (value: number) => string): string {
  return spread === undefined ? '–' : format(spread.median);
}
