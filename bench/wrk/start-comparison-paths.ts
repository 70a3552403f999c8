// Starts the mock upstream (load core), then the reference proxy, Portkey and our gateway twice, billing on and off
// (measured core), and describes the five paths to the mock.
import { bundleBenchGateway } from '../bundle-bench-gateway.js';
import { compileBenchProcesses, compiledBenchProcess } from '../compile-bench-processes.js';
import { waitUntilGatewaySettled } from '../read-gateway-metrics.js';
import { readGatewayLaunch } from '../read-gateway-launch.js';
import { startBenchProcess, type ProcessLayout } from '../start-bench-processes.js';
import { labelOf, type ComparisonPath, type ComparisonPathName } from './comparison-paths.js';
import { comparisonModel, pacedComparisonModel } from './create-wrk-chat-body.js';
import type { MeasuredProcess } from './measured-process.js';
import { startPortkey } from './start-portkey.js';
import type { WrkComparisonSettings } from './wrk-comparison-settings.js';

/** The paths and a way to stop every process behind them. */
export interface RunningComparison {
  paths: Record<ComparisonPathName, ComparisonPath>;
  mockUpstream: MeasuredProcess;
  stop(): Promise<void>;
}

const upstreamKey = 'sk-mock-bench-upstream-key';

/** `portkeyServerScript` is the installed Portkey's start-server.js. */
export async function startComparisonPaths(
  layout: ProcessLayout,
  settings: WrkComparisonSettings,
  portkeyServerScript: string,
): Promise<RunningComparison> {
  const started: MeasuredProcess[] = [];
  const stop = async () => {
    await Promise.all(started.map((running) => running.stop()));
  };
  compileBenchProcesses(
    ['mock-upstream-process.ts', 'reference-proxy-process.ts'].map((script) => `bench/processes/${script}`),
  );
  const gatewayScript = await bundleBenchGateway();
  try {
    const mockUpstream = await startBenchProcess({
      name: 'mock upstream',
      scriptFile: compiledBenchProcess('mock-upstream-process.ts'),
      core: layout.loadCore,
      environment: {},
    });
    started.push(mockUpstream);
    const upstreamOrigin = new URL(mockUpstream.url).origin;
    const proxy = await startBenchProcess({
      name: 'reference proxy',
      scriptFile: compiledBenchProcess('reference-proxy-process.ts'),
      core: layout.measuredCore,
      environment: {
        BENCH_UPSTREAM_ORIGIN: upstreamOrigin,
        BENCH_PROXY_CONNECTIONS: String(settings.proxyConnections),
      },
    });
    started.push(proxy);
    const portkey = await startPortkey(portkeyServerScript, layout.measuredCore);
    started.push(portkey);
    // As `npm start` runs it: its environment, its Node flags and the gateway's default settings, but for the per-address cap.
    const launch = readGatewayLaunch();
    const startGateway = async (name: string, billing: 'on' | 'off') => {
      const gateway = await startBenchProcess({
        name,
        scriptFile: gatewayScript,
        core: layout.measuredCore,
        // BENCH_GATEWAY_NODE_FLAGS adds flags for experiments and profiles, e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles`.
        nodeFlags: [...launch.nodeFlags, ...(process.env.BENCH_GATEWAY_NODE_FLAGS ?? '').split(' ').filter(Boolean)],
        // wrk's connections all come from loopback, one address, so the per-address in-flight cap is the one setting lifted.
        environment: {
          ...launch.environment,
          BENCH_UPSTREAM_URL: mockUpstream.url,
          BENCH_UPSTREAM_KEY: upstreamKey,
          BENCH_MODELS: [comparisonModel, pacedComparisonModel].join(','),
          GATEWAY_MAX_IN_FLIGHT_PER_ADDRESS: '0',
          GATEWAY_BILLING: billing,
        },
      });
      started.push(gateway);
      return gateway;
    };
    const gateway = await startGateway('gateway', 'on');
    const unbilled = await startGateway('gateway, billing off', 'off');
    const json = { 'content-type': 'application/json' };
    const upstreamAuthorization = { ...json, authorization: `Bearer ${upstreamKey}` };
    const path = (
      name: ComparisonPathName,
      chatUrl: string,
      headers: Record<string, string>,
      process: MeasuredProcess | undefined,
    ): ComparisonPath => ({
      name,
      label: labelOf(name),
      chatUrl,
      headers,
      process,
      waitUntilSettled: process === gateway ? () => waitUntilGatewaySettled(gateway.url) : undefined,
    });
    return {
      mockUpstream,
      stop,
      paths: {
        direct: path('direct', `${mockUpstream.url}/chat/completions`, upstreamAuthorization, undefined),
        proxy: path('proxy', `${proxy.url}/v1/chat/completions`, upstreamAuthorization, proxy),
        // Portkey's own way to reach an OpenAI-compatible host it does not know: provider and custom host headers.
        portkey: path(
          'portkey',
          `${portkey.url}/v1/chat/completions`,
          { ...upstreamAuthorization, 'x-portkey-provider': 'openai', 'x-portkey-custom-host': mockUpstream.url },
          portkey,
        ),
        gateway: path(
          'gateway',
          `${gateway.url}/v1/chat/completions`,
          { ...json, authorization: `Bearer ${gateway.details.apiKey as string}` },
          gateway,
        ),
        unbilled: path(
          'unbilled',
          `${unbilled.url}/v1/chat/completions`,
          { ...json, authorization: `Bearer ${unbilled.details.apiKey as string}` },
          unbilled,
        ),
      },
    };
  } catch (error) {
    await stop();
    throw error;
  }
}
