import type OpenAI from 'openai';
import { startOpenAiSimulator, type OpenAiSimulator } from '../simulators/openai-simulator.js';
import {
  createOpenAiClient,
  startTestGateway,
  type TestChannelOptions,
  type TestGateway,
  type TestGatewayOptions,
} from './start-test-gateway.js';

/** A gateway with one channel to a loopback OpenAI simulator, a key, and an SDK client using it. */
export interface SimulatedGateway {
  simulator: OpenAiSimulator;
  gateway: TestGateway;
  clientKey: string;
  client: OpenAI;
  close(): Promise<void>;
}

/** Starts the simulator (accepting `channelSecret`) and a gateway whose channel serves `models` through it. */
export async function startSimulatedGateway(options: {
  channelSecret: string;
  models: string[];
  modelMapping?: TestChannelOptions['modelMapping'];
  gateway?: TestGatewayOptions;
}): Promise<SimulatedGateway> {
  const simulator = await startOpenAiSimulator({ apiKey: options.channelSecret });
  const gateway = await startTestGateway(options.gateway);
  await gateway.createChannel({
    baseUrl: simulator.url,
    secret: options.channelSecret,
    models: options.models,
    ...(options.modelMapping ? { modelMapping: options.modelMapping } : {}),
  });
  const clientKey = (await gateway.createKey()).secret;
  return {
    simulator,
    gateway,
    clientKey,
    client: createOpenAiClient(gateway, clientKey),
    async close() {
      await gateway.close();
      await simulator.close();
    },
  };
}
