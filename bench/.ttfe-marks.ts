// Temporary probe: sequential streams to the gateway, then SIGUSR2 to dump its marks.
import { Agent } from 'undici';
import { comparisonModel, createWrkChatBody } from './wrk/create-wrk-chat-body.js';
import { ensurePortkey } from './wrk/ensure-portkey.js';
import { measureFirstEvent } from './wrk/measure-first-event.js';
import { startComparisonPaths } from './wrk/start-comparison-paths.js';
import { quickWrkSettings } from './wrk/wrk-comparison-settings.js';
import { planProcessLayout } from './start-bench-processes.js';
const layout = planProcessLayout();
const running = await startComparisonPaths(layout, quickWrkSettings, ensurePortkey(() => undefined));
const streamed = createWrkChatBody({ model: comparisonModel, stream: true, bytes: 462 });
const dispatcher = new Agent({ keepAliveTimeout: 30_000, connections: 1 });
try {
  const path = running.paths.gateway;
  for (let i = 0; i < 1500; i++) await measureFirstEvent(dispatcher, path, streamed, 1);
  process.kill(path.process!.pid, 'SIGUSR2');
  const times: number[] = [];
  for (let i = 0; i < 1000; i++) times.push((await measureFirstEvent(dispatcher, path, streamed, 1)).p50Ms);
  process.kill(path.process!.pid, 'SIGUSR2');
  await new Promise((r) => setTimeout(r, 500));
  console.log('client p50', [...times].sort((a, b) => a - b)[500]!.toFixed(3));
} finally {
  await dispatcher.close();
  await running.stop();
}
