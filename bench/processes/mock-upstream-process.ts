// Child process: the wrk comparison's mock upstream (bench/wrk/mock-upstream.ts).
import { startMockUpstream } from '../wrk/mock-upstream.js';
import { answerControlMessages, failStartup, sendToHarness } from './answer-control-messages.js';

try {
  const mockUpstream = await startMockUpstream();
  answerControlMessages(() => mockUpstream.close());
  sendToHarness({ type: 'ready', url: mockUpstream.url, details: {} });
} catch (error) {
  failStartup(error);
}
