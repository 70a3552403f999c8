// Child process: the OpenAI simulator as the benchmark's upstream (zero delay; paced streams via `sim-paced-NxM`).
import { startOpenAiSimulator } from '../../test/simulators/openai-simulator.js';
import { answerControlMessages, failStartup, sendToHarness } from './answer-control-messages.js';

try {
  const apiKey = process.env.BENCH_UPSTREAM_KEY;
  const simulator = await startOpenAiSimulator({ apiKey, recordRequests: false });
  answerControlMessages(() => simulator.close());
  sendToHarness({ type: 'ready', url: simulator.url, details: { port: String(simulator.port) } });
} catch (error) {
  failStartup(error);
}
