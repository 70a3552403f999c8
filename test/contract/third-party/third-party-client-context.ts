// What every third-party client scenario gets: one gateway per vendor target with its simulator behind it, a key,
// and the public model the channel maps to the simulator's normal model.
import type { ContractTarget, ContractUpstream } from '../contract-targets.js';
import { startContractGateway, type ContractGateway } from '../start-contract-gateway.js';

/** The public model id every third-party scenario asks for. */
export const thirdPartyModel = 'contract-chat';

/**
 * A public id named like a real Claude model, served by the same simulator model: @ai-sdk/anthropic picks its
 * structured-output mode by the model's name (`output_config.format` for the Claude models it knows, a forced `json`
 * tool for names it does not), so applications calling it with a Claude name reach the gateway with `output_config`.
 */
export const thirdPartyClaudeModel = 'claude-sonnet-4-5';

/** The public embedding model id, served by the target's embedding model. */
export const thirdPartyEmbeddingModel = 'contract-embedding';

/** One vendor target's running gateway and simulator, as a third-party client sees them. */
export interface ThirdPartyClientContext {
  target: ContractTarget;
  gateway: ContractGateway;
  upstream: ContractUpstream;
  /** a gateway key (never the vendor's secret) */
  apiKey: string;
}

/** One named call an application makes through a third-party client. */
export interface ThirdPartyClientScenario {
  name: string;
  run(context: ThirdPartyClientContext): Promise<void>;
}

/** Starts the target's simulator and a gateway with one channel serving both public ids from its normal model. */
export async function startThirdPartyClientContext(target: ContractTarget): Promise<ThirdPartyClientContext> {
  const upstream = await target.start();
  const gateway = await startContractGateway();
  await gateway.createChannel({
    protocol: target.protocol,
    baseUrl: upstream.url,
    secret: upstream.secret,
    settings: target.settings,
    models: {
      [thirdPartyModel]: target.normalModel,
      [thirdPartyClaudeModel]: target.normalModel,
      [thirdPartyEmbeddingModel]: target.embeddingModel,
    },
  });
  const apiKey = await gateway.createKey();
  return { target, gateway, upstream, apiKey };
}

/** The body the vendor received last, as parsed JSON. */
export function lastUpstreamBody(context: ThirdPartyClientContext): Record<string, unknown> {
  return context.upstream.requests.at(-1)?.body as Record<string, unknown>;
}
