import type { CatalogModel } from '../catalog-model.js';
import { audioOnly, textAndImage, textOnly } from './input-modalities.js';
import { releaseDate } from './release-date.js';
import { imagePrices, toMicroUnits, tokenPrices } from './token-prices.js';

const o = 'openai';

/** OpenAI models; `created` values of the older ids are the ones OpenAI's /v1/models reports. Prices: OpenAI's list, Nov 2025. */
export const openAiModels: CatalogModel[] = [
  // GPT-5 family (400K context; the chat-latest variant is ChatGPT's 128K model)
  { id: 'gpt-5', ownedBy: o, kind: 'chat', created: releaseDate('2025-08-07'), contextWindow: 400_000, maxOutputTokens: 128_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(1.25, 10, { cachedInput: 0.125 }) },
  { id: 'gpt-5-2025-08-07', ownedBy: o, kind: 'chat', created: releaseDate('2025-08-07'), contextWindow: 400_000, maxOutputTokens: 128_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(1.25, 10, { cachedInput: 0.125 }) },
  { id: 'gpt-5-mini', ownedBy: o, kind: 'chat', created: releaseDate('2025-08-07'), contextWindow: 400_000, maxOutputTokens: 128_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.25, 2, { cachedInput: 0.025 }) },
  { id: 'gpt-5-mini-2025-08-07', ownedBy: o, kind: 'chat', created: releaseDate('2025-08-07'), contextWindow: 400_000, maxOutputTokens: 128_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.25, 2, { cachedInput: 0.025 }) },
  { id: 'gpt-5-nano', ownedBy: o, kind: 'chat', created: releaseDate('2025-08-07'), contextWindow: 400_000, maxOutputTokens: 128_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.05, 0.4, { cachedInput: 0.005 }) },
  { id: 'gpt-5-nano-2025-08-07', ownedBy: o, kind: 'chat', created: releaseDate('2025-08-07'), contextWindow: 400_000, maxOutputTokens: 128_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.05, 0.4, { cachedInput: 0.005 }) },
  { id: 'gpt-5-chat-latest', ownedBy: o, kind: 'chat', created: releaseDate('2025-08-07'), contextWindow: 128_000, maxOutputTokens: 16_384, inputModalities: [...textAndImage], defaultPrices: tokenPrices(1.25, 10, { cachedInput: 0.125 }) },
  { id: 'gpt-5-codex', ownedBy: o, kind: 'chat', created: releaseDate('2025-09-23'), contextWindow: 400_000, maxOutputTokens: 128_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(1.25, 10, { cachedInput: 0.125 }) },
  { id: 'gpt-5-pro', ownedBy: o, kind: 'chat', created: releaseDate('2025-10-06'), contextWindow: 400_000, maxOutputTokens: 272_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(15, 120) },
  // GPT-4.1 family (1M context)
  { id: 'gpt-4.1', ownedBy: o, kind: 'chat', created: 1744316542, contextWindow: 1_047_576, maxOutputTokens: 32_768, inputModalities: [...textAndImage], defaultPrices: tokenPrices(2, 8, { cachedInput: 0.5 }) },
  { id: 'gpt-4.1-2025-04-14', ownedBy: o, kind: 'chat', created: 1744315746, contextWindow: 1_047_576, maxOutputTokens: 32_768, inputModalities: [...textAndImage], defaultPrices: tokenPrices(2, 8, { cachedInput: 0.5 }) },
  { id: 'gpt-4.1-mini', ownedBy: o, kind: 'chat', created: 1744318173, contextWindow: 1_047_576, maxOutputTokens: 32_768, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.4, 1.6, { cachedInput: 0.1 }) },
  { id: 'gpt-4.1-mini-2025-04-14', ownedBy: o, kind: 'chat', created: 1744317547, contextWindow: 1_047_576, maxOutputTokens: 32_768, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.4, 1.6, { cachedInput: 0.1 }) },
  { id: 'gpt-4.1-nano', ownedBy: o, kind: 'chat', created: 1744321707, contextWindow: 1_047_576, maxOutputTokens: 32_768, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.1, 0.4, { cachedInput: 0.025 }) },
  { id: 'gpt-4.1-nano-2025-04-14', ownedBy: o, kind: 'chat', created: 1744321025, contextWindow: 1_047_576, maxOutputTokens: 32_768, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.1, 0.4, { cachedInput: 0.025 }) },
  // GPT-4o family (128K context)
  { id: 'gpt-4o', ownedBy: o, kind: 'chat', created: 1715367049, contextWindow: 128_000, maxOutputTokens: 16_384, inputModalities: [...textAndImage], defaultPrices: tokenPrices(2.5, 10, { cachedInput: 1.25 }) },
  { id: 'gpt-4o-2024-05-13', ownedBy: o, kind: 'chat', created: 1715368132, contextWindow: 128_000, maxOutputTokens: 4_096, inputModalities: [...textAndImage], defaultPrices: tokenPrices(5, 15) },
  { id: 'gpt-4o-2024-08-06', ownedBy: o, kind: 'chat', created: 1722814719, contextWindow: 128_000, maxOutputTokens: 16_384, inputModalities: [...textAndImage], defaultPrices: tokenPrices(2.5, 10, { cachedInput: 1.25 }) },
  { id: 'gpt-4o-2024-11-20', ownedBy: o, kind: 'chat', created: 1739331543, contextWindow: 128_000, maxOutputTokens: 16_384, inputModalities: [...textAndImage], defaultPrices: tokenPrices(2.5, 10, { cachedInput: 1.25 }) },
  { id: 'chatgpt-4o-latest', ownedBy: o, kind: 'chat', created: 1723515131, contextWindow: 128_000, maxOutputTokens: 16_384, inputModalities: [...textAndImage], defaultPrices: tokenPrices(5, 15) },
  { id: 'gpt-4o-mini', ownedBy: o, kind: 'chat', created: 1721172741, contextWindow: 128_000, maxOutputTokens: 16_384, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.15, 0.6, { cachedInput: 0.075 }) },
  { id: 'gpt-4o-mini-2024-07-18', ownedBy: o, kind: 'chat', created: 1721172717, contextWindow: 128_000, maxOutputTokens: 16_384, inputModalities: [...textAndImage], defaultPrices: tokenPrices(0.15, 0.6, { cachedInput: 0.075 }) },
  { id: 'gpt-4o-search-preview', ownedBy: o, kind: 'chat', created: releaseDate('2025-03-11'), contextWindow: 128_000, maxOutputTokens: 16_384, inputModalities: [...textOnly], defaultPrices: tokenPrices(2.5, 10) },
  { id: 'gpt-4o-mini-search-preview', ownedBy: o, kind: 'chat', created: releaseDate('2025-03-11'), contextWindow: 128_000, maxOutputTokens: 16_384, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.15, 0.6) },
  { id: 'gpt-4.5-preview', ownedBy: o, kind: 'chat', created: 1740623059, contextWindow: 128_000, maxOutputTokens: 16_384, inputModalities: [...textAndImage], defaultPrices: tokenPrices(75, 150, { cachedInput: 37.5 }) },
  // Older GPT-4 and GPT-3.5 (contexts below 64K: see the catalog test's list of old models)
  { id: 'gpt-4-turbo', ownedBy: o, kind: 'chat', created: 1712361441, contextWindow: 128_000, maxOutputTokens: 4_096, inputModalities: [...textAndImage], defaultPrices: tokenPrices(10, 30) },
  { id: 'gpt-4-turbo-2024-04-09', ownedBy: o, kind: 'chat', created: 1712601677, contextWindow: 128_000, maxOutputTokens: 4_096, inputModalities: [...textAndImage], defaultPrices: tokenPrices(10, 30) },
  { id: 'gpt-4-turbo-preview', ownedBy: o, kind: 'chat', created: 1706037777, contextWindow: 128_000, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(10, 30) },
  { id: 'gpt-4', ownedBy: o, kind: 'chat', created: 1687882411, contextWindow: 8_192, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(30, 60) },
  { id: 'gpt-4-0613', ownedBy: o, kind: 'chat', created: 1686588896, contextWindow: 8_192, maxOutputTokens: 8_192, inputModalities: [...textOnly], defaultPrices: tokenPrices(30, 60) },
  { id: 'gpt-3.5-turbo', ownedBy: o, kind: 'chat', created: 1677610602, contextWindow: 16_385, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.5, 1.5) },
  { id: 'gpt-3.5-turbo-0125', ownedBy: o, kind: 'chat', created: 1706048358, contextWindow: 16_385, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.5, 1.5) },
  { id: 'gpt-3.5-turbo-1106', ownedBy: o, kind: 'chat', created: 1698959748, contextWindow: 16_385, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(1, 2) },
  { id: 'gpt-3.5-turbo-16k', ownedBy: o, kind: 'chat', created: 1683758102, contextWindow: 16_385, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(3, 4) },
  // Reasoning models (o-series)
  { id: 'o1', ownedBy: o, kind: 'chat', created: 1734375816, contextWindow: 200_000, maxOutputTokens: 100_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(15, 60, { cachedInput: 7.5 }) },
  { id: 'o1-2024-12-17', ownedBy: o, kind: 'chat', created: 1734326976, contextWindow: 200_000, maxOutputTokens: 100_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(15, 60, { cachedInput: 7.5 }) },
  { id: 'o1-mini', ownedBy: o, kind: 'chat', created: 1725649008, contextWindow: 128_000, maxOutputTokens: 65_536, inputModalities: [...textOnly], defaultPrices: tokenPrices(1.1, 4.4, { cachedInput: 0.55 }) },
  { id: 'o1-preview', ownedBy: o, kind: 'chat', created: 1725648897, contextWindow: 128_000, maxOutputTokens: 32_768, inputModalities: [...textOnly], defaultPrices: tokenPrices(15, 60, { cachedInput: 7.5 }) },
  { id: 'o1-pro', ownedBy: o, kind: 'chat', created: 1742251791, contextWindow: 200_000, maxOutputTokens: 100_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(150, 600) },
  { id: 'o3', ownedBy: o, kind: 'chat', created: 1744225308, contextWindow: 200_000, maxOutputTokens: 100_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(2, 8, { cachedInput: 0.5 }) },
  { id: 'o3-2025-04-16', ownedBy: o, kind: 'chat', created: 1744133301, contextWindow: 200_000, maxOutputTokens: 100_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(2, 8, { cachedInput: 0.5 }) },
  { id: 'o3-pro', ownedBy: o, kind: 'chat', created: releaseDate('2025-06-10'), contextWindow: 200_000, maxOutputTokens: 100_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(20, 80) },
  { id: 'o3-mini', ownedBy: o, kind: 'chat', created: 1737146383, contextWindow: 200_000, maxOutputTokens: 100_000, inputModalities: [...textOnly], defaultPrices: tokenPrices(1.1, 4.4, { cachedInput: 0.55 }) },
  { id: 'o3-mini-2025-01-31', ownedBy: o, kind: 'chat', created: 1738010200, contextWindow: 200_000, maxOutputTokens: 100_000, inputModalities: [...textOnly], defaultPrices: tokenPrices(1.1, 4.4, { cachedInput: 0.55 }) },
  { id: 'o3-deep-research', ownedBy: o, kind: 'chat', created: releaseDate('2025-06-26'), contextWindow: 200_000, maxOutputTokens: 100_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(10, 40, { cachedInput: 2.5 }) },
  { id: 'o4-mini', ownedBy: o, kind: 'chat', created: 1744225351, contextWindow: 200_000, maxOutputTokens: 100_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(1.1, 4.4, { cachedInput: 0.275 }) },
  { id: 'o4-mini-2025-04-16', ownedBy: o, kind: 'chat', created: 1744133506, contextWindow: 200_000, maxOutputTokens: 100_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(1.1, 4.4, { cachedInput: 0.275 }) },
  { id: 'o4-mini-deep-research', ownedBy: o, kind: 'chat', created: releaseDate('2025-06-26'), contextWindow: 200_000, maxOutputTokens: 100_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(2, 8, { cachedInput: 0.5 }) },
  { id: 'codex-mini-latest', ownedBy: o, kind: 'chat', created: releaseDate('2025-05-16'), contextWindow: 200_000, maxOutputTokens: 100_000, inputModalities: [...textAndImage], defaultPrices: tokenPrices(1.5, 6, { cachedInput: 0.375 }) },
  // Open-weight models, served by other vendors under these names
  { id: 'gpt-oss-120b', ownedBy: o, kind: 'chat', created: releaseDate('2025-08-05'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.15, 0.6) },
  { id: 'gpt-oss-20b', ownedBy: o, kind: 'chat', created: releaseDate('2025-08-05'), contextWindow: 131_072, maxOutputTokens: 131_072, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.07, 0.3) },
  // Legacy completions
  { id: 'gpt-3.5-turbo-instruct', ownedBy: o, kind: 'completion', created: 1692901427, contextWindow: 4_096, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(1.5, 2) },
  { id: 'davinci-002', ownedBy: o, kind: 'completion', created: 1692634301, contextWindow: 16_384, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(2, 2) },
  { id: 'babbage-002', ownedBy: o, kind: 'completion', created: 1692634615, contextWindow: 16_384, maxOutputTokens: 4_096, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.4, 0.4) },
  // Embeddings
  { id: 'text-embedding-3-small', ownedBy: o, kind: 'embedding', created: 1705948997, contextWindow: 8_191, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.02, 0) },
  { id: 'text-embedding-3-large', ownedBy: o, kind: 'embedding', created: 1705953180, contextWindow: 8_191, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.13, 0) },
  { id: 'text-embedding-ada-002', ownedBy: o, kind: 'embedding', created: 1671217299, contextWindow: 8_191, inputModalities: [...textOnly], defaultPrices: tokenPrices(0.1, 0) },
  // Images (sizes: spec section 8)
  {
    id: 'dall-e-3', ownedBy: o, kind: 'image', created: 1698785189, inputModalities: [...textOnly], imageSizes: ['1024x1024', '1792x1024', '1024x1792'], maxImagesPerRequest: 1,
    defaultPrices: { ...tokenPrices(0, 0), perImage: imagePrices({ '1024x1024:standard': 0.04, '1792x1024:standard': 0.08, '1024x1792:standard': 0.08, '1024x1024:hd': 0.08, '1792x1024:hd': 0.12, '1024x1792:hd': 0.12 }) },
  },
  {
    id: 'dall-e-2', ownedBy: o, kind: 'image', created: 1698798177, inputModalities: [...textAndImage], imageSizes: ['256x256', '512x512', '1024x1024'], supportsImageEdits: true, maxImagesPerRequest: 10,
    defaultPrices: { ...tokenPrices(0, 0), perImage: imagePrices({ '256x256:standard': 0.016, '512x512:standard': 0.018, '1024x1024:standard': 0.02 }) },
  },
  {
    id: 'gpt-image-1', ownedBy: o, kind: 'image', created: 1745517030, inputModalities: [...textAndImage], imageSizes: ['1024x1024', '1536x1024', '1024x1536'], supportsImageEdits: true, maxImagesPerRequest: 10,
    defaultPrices: {
      ...tokenPrices(5, 40, { cachedInput: 1.25 }),
      perImage: imagePrices({
        '1024x1024:low': 0.011, '1024x1536:low': 0.016, '1536x1024:low': 0.016,
        '1024x1024:medium': 0.042, '1024x1536:medium': 0.063, '1536x1024:medium': 0.063,
        '1024x1024:high': 0.167, '1024x1536:high': 0.25, '1536x1024:high': 0.25,
      }),
    },
  },
  {
    id: 'gpt-image-1-mini', ownedBy: o, kind: 'image', created: releaseDate('2025-10-06'), inputModalities: [...textAndImage], imageSizes: ['1024x1024', '1536x1024', '1024x1536'], supportsImageEdits: true, maxImagesPerRequest: 10,
    defaultPrices: {
      ...tokenPrices(2, 8, { cachedInput: 0.2 }),
      perImage: imagePrices({
        '1024x1024:low': 0.005, '1024x1536:low': 0.006, '1536x1024:low': 0.006,
        '1024x1024:medium': 0.011, '1024x1536:medium': 0.015, '1536x1024:medium': 0.015,
        '1024x1024:high': 0.036, '1024x1536:high': 0.052, '1536x1024:high': 0.052,
      }),
    },
  },
  // Transcription
  { id: 'whisper-1', ownedBy: o, kind: 'audio', created: 1677532384, inputModalities: [...audioOnly], defaultPrices: { ...tokenPrices(0, 0), perAudioMinute: toMicroUnits(0.006) } },
  // Billed by tokens (usage.type 'tokens'): input at the audio-token rate, since audio is nearly all of it (the few
  // prompt text tokens cost less at OpenAI: 2.5 and 1.25); per minute only when the vendor reports no token usage.
  { id: 'gpt-4o-transcribe', ownedBy: o, kind: 'audio', created: 1742068463, inputModalities: [...audioOnly], defaultPrices: { ...tokenPrices(6, 10), perAudioMinute: toMicroUnits(0.006) } },
  { id: 'gpt-4o-mini-transcribe', ownedBy: o, kind: 'audio', created: 1742068596, inputModalities: [...audioOnly], defaultPrices: { ...tokenPrices(3, 5), perAudioMinute: toMicroUnits(0.003) } },
];
