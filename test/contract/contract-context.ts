// What every contract scenario gets, and the public model names the suite seeds on each gateway.
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { request } from 'undici';
import type { ImageServer } from '../helpers/start-image-server.js';
import type { ContractTarget, ContractUpstream } from './contract-targets.js';
import type { ContractGateway } from './start-contract-gateway.js';

/** One adapter's running gateway, simulator and client. */
export interface ContractContext {
  target: ContractTarget;
  gateway: ContractGateway;
  upstream: ContractUpstream;
  client: OpenAI;
  /** the official Anthropic client, for /v1/messages */
  anthropic: Anthropic;
  apiKey: string;
  /** serves the images whose URLs scenarios send (vendors needing bytes get them fetched by the gateway) */
  images: ImageServer;
}

/** One named scenario of a client protocol. */
export interface ContractScenario {
  name: string;
  run(context: ContractContext): Promise<void>;
}

/** Public model ids, each mapped by the suite's channels to an upstream behaviour. */
export const contractModels = {
  chat: 'contract-chat',
  cache: 'contract-cache',
  error400: 'contract-error-400',
  error401: 'contract-error-401',
  error429: 'contract-error-429',
  error500: 'contract-error-500',
  overloaded: 'contract-overloaded',
  brokenStream: 'contract-broken-stream',
  streamErrorEvent: 'contract-stream-error-event',
  hang: 'contract-hang',
  failover: 'contract-failover',
  failoverEarly: 'contract-failover-early',
  embedding: 'contract-embedding',
} as const;

/** The gateway's answer read whole, for what the SDK hides (SSE bytes, statuses). */
export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** POSTs a JSON body to the gateway with the key, as an SDK would. */
export async function postToGateway(context: ContractContext, path: string, body: unknown): Promise<RawAnswer> {
  const response = await request(context.gateway.url + path, {
    method: 'POST',
    headers: { authorization: `Bearer ${context.apiKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.statusCode, headers: response.headers, text: await response.body.text() };
}

/** The `data:` payloads of an SSE body, in order. */
export function readEventData(streamText: string): string[] {
  return streamText
    .split('\n\n')
    .filter((event) => event.startsWith('data: '))
    .map((event) => event.slice('data: '.length));
}

/** One SSE event: its `event:` name when it has one, and its data. */
export interface SseEvent {
  event: string | undefined;
  data: string;
}

/** The events of an SSE body, in order, with their names (Responses and Messages name every event). */
export function readSseEvents(streamText: string): SseEvent[] {
  return streamText
    .split('\n\n')
    .filter((block) => block.trim() !== '')
    .map((block) => {
      const lines = block.split('\n');
      const eventLine = lines.find((line) => line.startsWith('event: '));
      const data = lines.filter((line) => line.startsWith('data: ')).map((line) => line.slice('data: '.length));
      return { event: eventLine?.slice('event: '.length), data: data.join('\n') };
    });
}
