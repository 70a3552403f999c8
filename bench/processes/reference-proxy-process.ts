// Child process: the reference pass-through proxy in front of the simulator.
import { startReferenceProxy } from '../reference-proxy.js';
import { answerControlMessages, failStartup, sendToHarness } from './answer-control-messages.js';

try {
  const upstreamOrigin = process.env.BENCH_UPSTREAM_ORIGIN;
  if (!upstreamOrigin) throw new Error('BENCH_UPSTREAM_ORIGIN is not set');
  // BENCH_PROXY_CONNECTIONS caps the undici Pool's keep-alive connections (the wrk comparison's 128); unlimited when unset.
  const connections = process.env.BENCH_PROXY_CONNECTIONS ? Number(process.env.BENCH_PROXY_CONNECTIONS) : undefined;
  const proxy = await startReferenceProxy({ upstreamOrigin, connections });
  answerControlMessages(() => proxy.close());
  sendToHarness({ type: 'ready', url: proxy.url, details: {} });
} catch (error) {
  failStartup(error);
}
