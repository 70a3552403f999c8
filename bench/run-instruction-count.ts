// `npm run bench:instructions [-- --quick]`: machine instructions per non-streamed chat request (every thread of the
// process: the SQLite writer and V8's helpers too), counted by valgrind's callgrind, for the reference proxy, our
// gateway, and our gateway with GATEWAY_BILLING=off, each in turn in one run. Billing's share is the difference of the
// last two, judged against the proxy's count. Instruction counts do not move with the shared host's load, as CPU times
// do. Installs valgrind when missing. Prints the table and writes bench/results/<date>-instructions[-quick].json.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { fullSettings } from './benchmark-settings.js';
import { collectMachineInfo } from './collect-machine-info.js';
import { ensureDebianCommand } from './ensure-debian-command.js';
import { readCallgrindCounts, type CallgrindCounts } from './instructions/read-callgrind-counts.js';
import { sendCountedRequests } from './instructions/send-counted-requests.js';
import { createChatBody } from './request-bodies.js';
import { planProcessLayout } from './start-bench-processes.js';
import { startBenchTargets } from './start-bench-targets.js';

const quick = process.argv.includes('--quick');
const startedAt = new Date();
/** Requests before counting starts (V8 compiles the hot code meanwhile) and requests counted; both whole settlement batches of 256. */
const warmupRequests = quick ? 1_536 : 6_144;
const countedRequests = quick ? 512 : 2_048;
const inFlight = 4;
/**
 * Billing's share of the proxy's instructions at most: half of the 1.54x measured by this method at 60d1888, the code
 * issue 38 measured billing on (891k instructions of billing against the proxy's 579k, outside V8's compilers).
 */
const billingShareTarget = 0.77;
/** Extra V8 flags for the measured processes (e.g. `--predictable`); none by default, so they run as `npm start` runs them. */
const v8Flags = (process.env.BENCH_INSTRUCTIONS_V8_FLAGS ?? '').split(' ').filter(Boolean);
/**
 * The gateway's timers (routing and billing revision checks every second, the billing reload every 10 s, the video
 * poller, the retention sweep) run by the clock: under valgrind's slowdown dozens of them fall inside the counted
 * window and would be charged to the requests (a run with them counted 966k and 1,506k for the same code). Per
 * request they cost nothing at real speed, so they are turned off here.
 */
const withoutPeriodicWork = {
  GATEWAY_REFRESH_INTERVAL_MS: '3600000',
  GATEWAY_BILLING_RELOAD_INTERVAL_MS: '0',
  GATEWAY_VIDEO_POLL_INTERVAL_MS: '3600000',
  GATEWAY_USAGE_LOG_RETENTION_DAYS: '0',
};
/** Longer than any batch takes to fill under valgrind, so every batch is written full (256 requests). */
const settlementIntervalMs = 20_000;
const resultsDirectory = path.resolve(path.dirname(fileURLToPath(import.meta.url)), 'results');
const clockStart = performance.now();
const log = (message: string): void => {
  process.stderr.write(
    `[bench:instructions ${((performance.now() - clockStart) / 1000).toFixed(0).padStart(4)} s] ${message}\n`,
  );
};

type MeasuredName = 'reference proxy' | 'gateway' | 'gateway, billing off';
const measuredNames: MeasuredName[] = ['reference proxy', 'gateway', 'gateway, billing off'];

const valgrindVersion = ensureDebianCommand(
  { command: 'valgrind', versionArguments: ['--version'], packageName: 'valgrind' },
  log,
);
const layout = planProcessLayout();
const body = createChatBody(500);
const perRequest = (value: number): number => Math.round(value / countedRequests);
const format = (value: number): string => `${(value / 1000).toFixed(1)}k`;
const counts = {} as Record<MeasuredName, CallgrindCounts>;
for (const name of measuredNames) counts[name] = await countOne(name);

const outsideCompilers = (name: MeasuredName): number => perRequest(counts[name].total - counts[name].compilers);
const billing = outsideCompilers('gateway') - outsideCompilers('gateway, billing off');
const billingShare = billing / outsideCompilers('reference proxy');
const rows = measuredNames.map((name) => ({
  name,
  instructionsPerRequest: perRequest(counts[name].total),
  outsideCompilersPerRequest: outsideCompilers(name),
}));
const result = {
  command: `npm run bench:instructions${quick ? ' -- --quick' : ''}`,
  startedAt: startedAt.toISOString(),
  machine: collectMachineInfo(),
  valgrind: valgrindVersion,
  warmupRequests,
  countedRequests,
  inFlight,
  rows,
  billingPerRequest: billing,
  billingShareOfProxy: Number(billingShare.toFixed(3)),
  target: { billingShareOfProxyAtMost: billingShareTarget, met: billingShare <= billingShareTarget },
};
process.stdout.write(
  [
    '| measured | instructions per request | outside V8 compilers |',
    '|---|---|---|',
    ...rows.map(
      (row) => `| ${row.name} | ${format(row.instructionsPerRequest)} | ${format(row.outsideCompilersPerRequest)} |`,
    ),
    '',
    `billing: ${format(billing)} instructions per request, ${billingShare.toFixed(2)}x the proxy's ` +
      `(target at most ${billingShareTarget}x: ${result.target.met ? 'met' : 'missed'})`,
    '',
  ].join('\n'),
);
mkdirSync(resultsDirectory, { recursive: true });
const file = path.join(resultsDirectory, `${result.startedAt.slice(0, 10)}-instructions${quick ? '-quick' : ''}.json`);
writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
log(`wrote ${path.relative(process.cwd(), file)}`);

/** Starts the targets with `name`'s process under callgrind, warms it up, and counts `countedRequests` requests. */
async function countOne(name: MeasuredName): Promise<CallgrindCounts> {
  const dumps = mkdtempSync(path.join(tmpdir(), 'gateway-callgrind-'));
  const wrapper = [
    'valgrind',
    '--tool=callgrind',
    // Counting starts after the warm-up (callgrind_control -i on).
    '--instr-atstart=no',
    // V8 writes and rewrites machine code in memory.
    '--smc-check=all-non-file',
    `--callgrind-out-file=${path.join(dumps, 'callgrind.out.%p')}`,
    `--log-file=${path.join(dumps, 'valgrind.log')}`,
  ];
  const onGateway = name !== 'reference proxy';
  log(`${name}: starting under callgrind`);
  const bench = await startBenchTargets(layout, fullSettings, {
    ...(onGateway ? { gatewayWrapper: wrapper } : { proxyWrapper: wrapper }),
    gatewayNodeFlags: v8Flags,
    proxyNodeFlags: v8Flags,
    readyTimeoutMs: 900_000,
    gatewayEnvironment: {
      BENCH_SETTLEMENT_INTERVAL_MS: String(settlementIntervalMs),
      ...withoutPeriodicWork,
      ...(name === 'gateway, billing off' ? { GATEWAY_BILLING: 'off' } : {}),
    },
  });
  try {
    const target = onGateway ? bench.targets.gateway : bench.targets.proxy;
    const pid = String((onGateway ? bench.gateway : bench.proxy).pid);
    log(`${name}: ${warmupRequests} requests to warm up, ${inFlight} in flight`);
    await sendCountedRequests(target, body, { count: warmupRequests, inFlight });
    await target.waitUntilSettled?.();
    // Compile jobs the warm-up queued finish on V8's threads before counting starts.
    await sleep(2_000);
    execFileSync('callgrind_control', ['--instr=on', pid], { stdio: 'ignore' });
    log(`${name}: ${countedRequests} requests counted`);
    await sendCountedRequests(target, body, { count: countedRequests, inFlight });
    // The counted requests' rows are written inside the count: their bookkeeping is part of their cost.
    await target.waitUntilSettled?.();
    execFileSync('callgrind_control', ['--instr=off', pid], { stdio: 'ignore' });
    execFileSync('callgrind_control', ['--dump', pid], { stdio: 'ignore' });
    // callgrind_control returns once the request is queued; the dump is written at the process's next check.
    await sleep(1_000);
  } finally {
    await bench.stop();
  }
  const counted = readCallgrindCounts(dumps);
  rmSync(dumps, { recursive: true, force: true });
  log(`${name}: ${format(perRequest(counted.total))} instructions per request`);
  return counted;
}
