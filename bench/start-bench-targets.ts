// Starts the simulator, the gateway and the reference proxy, and describes the three paths to the simulator.
import type { BenchTargets } from './bench-targets.js';
import type { BenchmarkSettings } from './benchmark-settings.js';
import { bundleBenchGateway } from './bundle-bench-gateway.js';
import { compileBenchProcesses, compiledBenchProcess } from './compile-bench-processes.js';
import { readGatewayLaunch } from './read-gateway-launch.js';
import { waitUntilGatewaySettled } from './read-gateway-metrics.js';
import { normalModel, pacedModel } from './request-bodies.js';
import { startBenchProcess, type BenchProcess, type ProcessLayout } from './start-bench-processes.js';

/** The running processes and the paths through them. */
export interface RunningBench {
  targets: BenchTargets;
  simulator: BenchProcess;
  gateway: BenchProcess;
  proxy: BenchProcess;
  /** stops all three */
  stop(): Promise<void>;
}

const upstreamKey = 'sk-sim-bench-upstream-key';

/** How the measured processes are started, beyond the defaults. */
export interface BenchTargetOptions {
  /** added to the gateway's Node command line, e.g. `--cpu-prof` */
  gatewayNodeFlags?: string[];
  /** the gateway file by file instead of bundled as `npm start` runs it (for profiles, whose summary names packages by file) */
  gatewayFileByFile?: boolean;
  /** added to the gateway's environment, e.g. `GATEWAY_BILLING=off` */
  gatewayEnvironment?: Record<string, string>;
  /** added to the reference proxy's Node command line */
  proxyNodeFlags?: string[];
  /** a command that runs the gateway's or the proxy's Node, e.g. valgrind (bench:instructions) */
  gatewayWrapper?: string[];
  proxyWrapper?: string[];
  /** how long each process may take to start, in milliseconds (default a minute) */
  readyTimeoutMs?: number;
}

/** Starts the simulator, the gateway and the reference proxy. */
export async function startBenchTargets(
  layout: ProcessLayout,
  settings: BenchmarkSettings,
  options: BenchTargetOptions = {},
): Promise<RunningBench> {
  const started: BenchProcess[] = [];
  const stop = async () => {
    await Promise.all(started.map((benchProcess) => benchProcess.stop()));
  };
  const scripts = [
    'simulator-process.ts',
    'reference-proxy-process.ts',
    ...(options.gatewayFileByFile ? ['gateway-process.ts'] : []),
  ];
  compileBenchProcesses(scripts.map((script) => `bench/processes/${script}`));
  const gatewayScript = options.gatewayFileByFile
    ? compiledBenchProcess('gateway-process.ts')
    : await bundleBenchGateway();
  try {
    const simulator = await startBenchProcess({
      name: 'simulator',
      scriptFile: compiledBenchProcess('simulator-process.ts'),
      core: layout.loadCore,
      environment: { BENCH_UPSTREAM_KEY: upstreamKey },
    });
    started.push(simulator);
    const models = [
      normalModel,
      pacedModel(settings.pacedChunkCount, settings.pacedIntervalMs),
      pacedModel(settings.memoryChunkCount, settings.memoryIntervalMs),
    ];
    const launch = readGatewayLaunch();
    const gateway = await startBenchProcess({
      name: 'gateway',
      scriptFile: gatewayScript,
      core: layout.measuredCore,
      nodeFlags: [...launch.nodeFlags, ...(options.gatewayNodeFlags ?? [])],
      wrapper: options.gatewayWrapper,
      readyTimeoutMs: options.readyTimeoutMs,
      environment: {
        ...launch.environment,
        BENCH_UPSTREAM_URL: simulator.url,
        BENCH_UPSTREAM_KEY: upstreamKey,
        BENCH_MODELS: models.join(','),
        GATEWAY_UPSTREAM_CONNECTIONS: String(settings.gatewayUpstreamConnections),
        // Every load client connects from loopback, one address: the per-address cap (32) would refuse the benchmark's 50+ streams.
        GATEWAY_MAX_IN_FLIGHT_PER_ADDRESS: '0',
        ...options.gatewayEnvironment,
      },
    });
    started.push(gateway);
    const proxy = await startBenchProcess({
      name: 'reference proxy',
      scriptFile: compiledBenchProcess('reference-proxy-process.ts'),
      core: layout.measuredCore,
      nodeFlags: options.proxyNodeFlags,
      wrapper: options.proxyWrapper,
      readyTimeoutMs: options.readyTimeoutMs,
      environment: { BENCH_UPSTREAM_ORIGIN: new URL(simulator.url).origin },
    });
    started.push(proxy);
    const apiKey = gateway.details.apiKey as string;
    return {
      simulator,
      gateway,
      proxy,
      stop,
      targets: {
        direct: { name: 'direct', baseUrl: simulator.url, authorization: `Bearer ${upstreamKey}`, process: undefined },
        proxy: { name: 'proxy', baseUrl: `${proxy.url}/v1`, authorization: `Bearer ${upstreamKey}`, process: proxy },
        gateway: {
          name: 'gateway',
          baseUrl: `${gateway.url}/v1`,
          authorization: `Bearer ${apiKey}`,
          process: gateway,
          waitUntilSettled: () => waitUntilGatewaySettled(gateway.url),
        },
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
