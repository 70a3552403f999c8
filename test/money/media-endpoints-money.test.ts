// Money matrix, media slice: embeddings, image generations, image edits and transcriptions × the vendors that have
// them. Each is charged exactly the price of what its vendor reported: input tokens, images returned, seconds of
// audio billed, or token-typed transcription usage; never the byte-count ceiling the hold was sized by.
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createWav } from '../helpers/create-wav.js';
import { createBilledClient, waitForSettledLog } from '../billing/settled-request-helpers.js';
import { createSolidPng } from './create-solid-png.js';
import { expectCharged } from './money-assertions.js';
import { embeddingInputs, mediaCases, mediaModelOf, transcriptionSeconds, type MediaCase } from './money-cases.js';
import { expectedInputOutputCharge, moneyMediaRates } from './money-price.js';
import { startMoneyGateway, type MoneyGateway } from './start-money-gateway.js';

const startingBalance = 10_000_000;
const loggedEndpoint: Record<MediaCase['endpoint'], string> = {
  embeddings: 'embeddings',
  images: 'images.generations',
  edits: 'images.edits',
  transcription: 'audio.transcriptions',
};

let money: MoneyGateway;

beforeAll(async () => {
  money = await startMoneyGateway({
    channelSets: [
      mediaCases.map((entry) => ({
        publicModel: mediaModelOf(entry),
        vendor: entry.vendor,
        vendorModel: entry.vendorModel,
      })),
    ],
    upstreamTimeoutMs: 5_000,
  });
});

afterAll(async () => {
  await money?.close();
});

/** Sends the case's request; returns the transcript's word count for a transcription (its output tokens). */
async function send(client: OpenAI, entry: MediaCase): Promise<{ transcriptWords: number }> {
  const model = mediaModelOf(entry);
  switch (entry.endpoint) {
    case 'embeddings':
      await client.embeddings.create({ model, input: embeddingInputs });
      return { transcriptWords: 0 };
    case 'images': {
      const answer = await client.images.generate({ model, prompt: 'a paper boat', n: 2, size: '1024x1024' });
      expect(answer.data).toHaveLength(2);
      return { transcriptWords: 0 };
    }
    case 'edits': {
      const image = await toFile(createSolidPng(4, 4, [200, 30, 30, 255]), 'boat.png', { type: 'image/png' });
      const answer = await client.images.edit({ model, image, prompt: 'paint it blue', n: 2, size: '256x256' });
      expect(answer.data).toHaveLength(2);
      return { transcriptWords: 0 };
    }
    case 'transcription': {
      const file = await toFile(createWav(transcriptionSeconds, { sampleRate: 8_000 }), 'speech.wav');
      const answer = await client.audio.transcriptions.create({ model, file, response_format: 'json' });
      return { transcriptWords: answer.text.split(' ').length };
    }
    default: {
      const unreachable: never = entry.endpoint;
      throw new Error(`unknown endpoint ${String(unreachable)}`);
    }
  }
}

/** The charge of what the vendor reported, computed by hand at the matrix's price. */
function expectedCharge(entry: MediaCase, transcriptWords: number): number {
  const { usage } = entry;
  switch (usage.kind) {
    case 'input-tokens':
      return expectedInputOutputCharge(usage.tokens, 0);
    case 'images':
      return usage.count * moneyMediaRates.perImage;
    case 'audio-seconds':
      // per-minute price × milliseconds / 60,000, rounded up once
      return Math.ceil((usage.seconds * 1_000 * moneyMediaRates.audioPerMinute) / 60_000);
    case 'transcription-tokens':
      return expectedInputOutputCharge(usage.inputTokens, transcriptWords);
    default: {
      const unreachable: never = usage;
      throw new Error(`unknown usage ${JSON.stringify(unreachable)}`);
    }
  }
}

describe.concurrent('media and embeddings are charged the price of what the vendor reported', () => {
  it.each(mediaCases)('$name', async (entry) => {
    const { gateway } = money;
    const { userId, client } = await createBilledClient(gateway, startingBalance);
    const { transcriptWords } = await send(client, entry);
    const log = await waitForSettledLog(gateway, userId);
    expect(log).toMatchObject({ endpoint: loggedEndpoint[entry.endpoint], status: 200, streamed: false });
    await expectCharged(gateway, log, startingBalance, expectedCharge(entry, transcriptWords));
  });
});
