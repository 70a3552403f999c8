// `npm run bench:wrk [-- --quick]`: issue 13's table in one run. wrk (pinned to core 1, with the mock upstream)
// loads four paths in turn: direct, the reference proxy, Portkey 1.15.2 and our gateway (each pinned to core 0).
// Installs wrk and Portkey when missing. Prints the table and writes bench/results/<date>-wrk[-quick].json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { Agent } from 'undici';
import { collectMachineInfo } from './collect-machine-info.js';
import type { ForeignCpu } from './measure-foreign-cpu.js';
import { planProcessLayout } from './start-bench-processes.js';
import { quietBelowCores, waitForQuietMachine } from './wait-for-quiet-machine.js';
import { comparisonPathNames, type ComparisonPath, type ComparisonPathName } from './wrk/comparison-paths.js';
import { comparisonModel, createWrkChatBody, pacedComparisonModel } from './wrk/create-wrk-chat-body.js';
import { DisturbanceGuard } from './wrk/disturbance-guard.js';
import { ensurePortkey, portkeyVersions } from './wrk/ensure-portkey.js';
import { ensureWrk } from './wrk/ensure-wrk.js';
import { measureFirstEvent } from './wrk/measure-first-event.js';
import { measureWrkPhase, type WrkPhaseResult } from './wrk/measure-wrk-phase.js';
import { renderWrkComparison } from './wrk/render-wrk-comparison.js';
import { startComparisonPaths } from './wrk/start-comparison-paths.js';
import { summarizeWrkComparison, type PathRound } from './wrk/summarize-wrk-comparison.js';
import { verifyPathAnswers } from './wrk/verify-path-answers.js';
import { fullWrkSettings, quickWrkSettings } from './wrk/wrk-comparison-settings.js';

const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const settings = process.argv.includes('--quick') ? quickWrkSettings : fullWrkSettings;
const command = `npm run bench:wrk${settings.mode === 'quick' ? ' -- --quick' : ''}`;
const startedAt = new Date();
const clockStart = performance.now();
const log = (message: string): void => {
  process.stderr.write(
    `[bench:wrk ${((performance.now() - clockStart) / 1000).toFixed(0).padStart(4)} s] ${message}\n`,
  );
};

const layout = planProcessLayout();
const wrkVersion = ensureWrk(log);
const portkeyServerScript = ensurePortkey(log);
const layoutDescription = layout.pinned
  ? 'measured process (reference proxy, Portkey or our gateway, one under load at a time) on core 0; wrk, the mock upstream and the harness on core 1 (taskset)'
  : layout.description;
log(`${settings.mode} run; ${layoutDescription}`);
await waitForQuietMachine(settings.mode === 'full' ? 120 : 0, log);
const loadAverageBefore = loadavg();
const comparison = await startComparisonPaths(layout, settings, portkeyServerScript);
const bodies = {
  plain: createWrkChatBody({ model: comparisonModel, stream: false, bytes: settings.bodyBytes }),
  streamed: createWrkChatBody({ model: comparisonModel, stream: true, bytes: settings.bodyBytes }),
  paced: createWrkChatBody({ model: pacedComparisonModel, stream: true, bytes: settings.bodyBytes }),
};
const wrkRun = (durationSeconds: number) => ({
  connections: settings.connections,
  durationSeconds,
  core: layout.loadCore,
});
const guard = new DisturbanceGuard({
  pids: [comparison.mockUpstream, ...comparisonPathNames.map((name) => comparison.paths[name].process)].flatMap(
    (running) => (running ? [running.pid] : []),
  ),
  attempts: settings.attempts,
  maximumWaitSeconds: settings.quietWaitSeconds,
  log,
});
const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 1 });
const rounds = Object.fromEntries(comparisonPathNames.map((name) => [name, [] as PathRound[]])) as Record<
  ComparisonPathName,
  PathRound[]
>;
const raw = Object.fromEntries(comparisonPathNames.map((name) => [name, [] as Record<string, WrkPhaseResult>[]]));
try {
  for (const name of comparisonPathNames) {
    log(`${comparison.paths[name].label}: checking its answers`);
    await verifyPathAnswers(comparison.paths[name], bodies);
  }
  for (let round = 0; round < settings.repetitions; round++) {
    // Rotated each round, so no path always runs first.
    const order = comparisonPathNames.map(
      (_, index) => comparisonPathNames[(index + round) % comparisonPathNames.length] as ComparisonPathName,
    );
    for (const name of order) {
      const measuredPath = comparison.paths[name];
      log(
        `run ${round + 1} of ${settings.repetitions}: ${measuredPath.label}, after ${settings.warmupSeconds} s of warm-up`,
      );
      await warmUp(measuredPath);
      const { pathRound, phases } = await measurePath(measuredPath);
      rounds[name].push(pathRound);
      raw[name]?.push(phases);
    }
  }
} finally {
  await dispatcher.close();
  await comparison.stop();
}

const summary = summarizeWrkComparison(rounds);
const loadAverageAfter = loadavg();
const resultsFile = path.join(
  'bench/results',
  `${startedAt.toISOString().slice(0, 10)}-wrk${settings.mode === 'quick' ? '-quick' : ''}.json`,
);
const notes = [
  `Date: ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC; command: \`${command}\`, ${Math.round((performance.now() - clockStart) / 1000)} s`,
  `Layout: ${layoutDescription}; wrk -t1 -c${settings.connections}, ${settings.bodyBytes}-byte body, ${settings.warmupSeconds} s warm-up, ${settings.repetitions} × ${settings.runSeconds} s runs, medians`,
  `Other load on the machine (CPU of processes outside the benchmark, from /proc): most disturbed kept run ${formatWorst(guard.worst())}; ${settings.attempts > 1 ? `a run disturbed by more than ${quietBelowCores} cores was measured again, up to ${settings.attempts} times, keeping the least disturbed` : 'quick runs measure once'}`,
  `Load average before / after: ${loadAverageBefore.map((value) => value.toFixed(2)).join(' ')} / ${loadAverageAfter.map((value) => value.toFixed(2)).join(' ')}`,
  `Software: Node ${process.version}, ${wrkVersion.split(' [')[0]}, @portkey-ai/gateway ${portkeyVersions.gateway} (hono ${portkeyVersions.hono}, @hono/node-server ${portkeyVersions.honoNodeServer}); raw numbers in \`${resultsFile}\``,
];
const markdown = renderWrkComparison(summary, notes);
mkdirSync(path.join(projectRoot, 'bench/results'), { recursive: true });
writeFileSync(
  path.join(projectRoot, resultsFile),
  `${JSON.stringify({ startedAt: startedAt.toISOString(), command, machine: collectMachineInfo(), layout, settings, wrkVersion, portkeyVersions, loadAverageBefore, loadAverageAfter, foreignLoad: guard.kept, rounds, raw, summary }, null, 2)}\n`,
);
log(`wrote ${resultsFile}`);
process.stdout.write(markdown);

/**
 * The issue's warm-up, right before each of the path's rounds: non-streamed load, 1 s of burst streams and 20
 * sequential streams. Each path waits while the other three are warmed up and measured; a warm-up ahead of that wait
 * would not reach the measurements, because a Node process's optimised code does not outlive it (V8's memory reducer
 * drops it after about 8 s without load; docs/BENCHMARKS.md, "Run of 2026-11-28 12:45").
 */
async function warmUp(measuredPath: ComparisonPath): Promise<void> {
  await measureWrkPhase(measuredPath, bodies.plain, wrkRun(settings.warmupSeconds));
  await measureWrkPhase(measuredPath, bodies.streamed, wrkRun(1));
  await measureFirstEvent(dispatcher, measuredPath, bodies.streamed, 20);
}

/** Non-streamed, burst-streamed and paced-streamed wrk runs, then sequential streams for the time to first event. */
async function measurePath(
  measuredPath: ComparisonPath,
): Promise<{ pathRound: PathRound; phases: Record<string, WrkPhaseResult> }> {
  const phase = (what: string) => `${measuredPath.label}, ${what}`;
  const plain = await guard.run(phase('non-streamed'), () =>
    measureWrkPhase(measuredPath, bodies.plain, wrkRun(settings.runSeconds)),
  );
  const burst = await guard.run(phase('burst streams'), () =>
    measureWrkPhase(measuredPath, bodies.streamed, wrkRun(settings.runSeconds)),
  );
  const paced = await guard.run(phase('paced streams'), () =>
    measureWrkPhase(measuredPath, bodies.paced, wrkRun(settings.runSeconds)),
  );
  const firstEvent = await guard.run(phase('time to first event'), () =>
    measureFirstEvent(dispatcher, measuredPath, bodies.streamed, settings.firstEventStreams),
  );
  return {
    phases: { plain, burst, paced },
    pathRound: {
      requestsPerSecond: plain.requestsPerSecond,
      cpuPerRequestMs: plain.cpuPerRequestMs,
      burstRequestsPerSecond: burst.requestsPerSecond,
      pacedCpuPerStreamMs: paced.cpuPerRequestMs,
      pacedP99Ms: paced.latencyP99Ms,
      pacedPeakRssBytes: paced.peakRssBytes,
      firstEventP50Ms: firstEvent.p50Ms,
      firstEventP99Ms: firstEvent.p99Ms,
    },
  };
}

function formatWorst(worst: ForeignCpu | undefined): string {
  return worst === undefined ? 'none' : `${worst.foreignCores.toFixed(2)} cores (${worst.phase})`;
}
