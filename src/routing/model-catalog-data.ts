import type { CatalogModel } from './catalog-model.js';

/** Catalog version; bump when entries change so operators can tell which defaults they run. */
export const modelCatalogVersion = '2026-11-23.1';

const textAndImage = ['text', 'image'] as const satisfies CatalogModel['inputModalities'];
const textOnly = ['text'] as const satisfies CatalogModel['inputModalities'];

/** Built-in models; `created` is the vendor's release date in Unix seconds. */
export const modelCatalogData: CatalogModel[] = [
  { id: 'gpt-4o', ownedBy: 'openai', kind: 'chat', created: 1715367049, contextWindow: 128_000, maxOutputTokens: 16_384, inputModalities: [...textAndImage] },
  { id: 'gpt-4o-2024-08-06', ownedBy: 'openai', kind: 'chat', created: 1722814719, contextWindow: 128_000, maxOutputTokens: 16_384, inputModalities: [...textAndImage] },
  { id: 'gpt-4o-mini', ownedBy: 'openai', kind: 'chat', created: 1721172741, contextWindow: 128_000, maxOutputTokens: 16_384, inputModalities: [...textAndImage] },
  { id: 'gpt-4.1', ownedBy: 'openai', kind: 'chat', created: 1744316542, contextWindow: 1_047_576, maxOutputTokens: 32_768, inputModalities: [...textAndImage] },
  { id: 'gpt-4.1-mini', ownedBy: 'openai', kind: 'chat', created: 1744318173, contextWindow: 1_047_576, maxOutputTokens: 32_768, inputModalities: [...textAndImage] },
  { id: 'gpt-4.1-nano', ownedBy: 'openai', kind: 'chat', created: 1744321707, contextWindow: 1_047_576, maxOutputTokens: 32_768, inputModalities: [...textAndImage] },
  { id: 'o3', ownedBy: 'openai', kind: 'chat', created: 1744225308, contextWindow: 200_000, maxOutputTokens: 100_000, inputModalities: [...textAndImage] },
  { id: 'o4-mini', ownedBy: 'openai', kind: 'chat', created: 1744225351, contextWindow: 200_000, maxOutputTokens: 100_000, inputModalities: [...textAndImage] },
  { id: 'gpt-3.5-turbo', ownedBy: 'openai', kind: 'chat', created: 1677610602, contextWindow: 16_385, maxOutputTokens: 4_096, inputModalities: [...textOnly] },
  { id: 'gpt-3.5-turbo-instruct', ownedBy: 'openai', kind: 'completion', created: 1692901427, contextWindow: 4_096, maxOutputTokens: 4_096, inputModalities: [...textOnly] },
  { id: 'text-embedding-3-small', ownedBy: 'openai', kind: 'embedding', created: 1705948997, contextWindow: 8_191, inputModalities: [...textOnly] },
  { id: 'text-embedding-3-large', ownedBy: 'openai', kind: 'embedding', created: 1705953180, contextWindow: 8_191, inputModalities: [...textOnly] },
  { id: 'text-embedding-ada-002', ownedBy: 'openai', kind: 'embedding', created: 1671217299, contextWindow: 8_191, inputModalities: [...textOnly] },
  { id: 'dall-e-3', ownedBy: 'openai', kind: 'image', created: 1698785189, inputModalities: [...textOnly], imageSizes: ['1024x1024', '1792x1024', '1024x1792'] },
  { id: 'dall-e-2', ownedBy: 'openai', kind: 'image', created: 1698798177, inputModalities: [...textAndImage], imageSizes: ['256x256', '512x512', '1024x1024'], supportsImageEdits: true },
  { id: 'gpt-image-1', ownedBy: 'openai', kind: 'image', created: 1745517030, inputModalities: [...textAndImage], imageSizes: ['1024x1024', '1536x1024', '1024x1536', 'auto'], supportsImageEdits: true },
  { id: 'whisper-1', ownedBy: 'openai', kind: 'audio', created: 1677532384, inputModalities: ['audio'] },
  { id: 'gpt-4o-transcribe', ownedBy: 'openai', kind: 'audio', created: 1742068463, inputModalities: ['audio'] },
  { id: 'deepseek-chat', ownedBy: 'deepseek', kind: 'chat', created: 1735689600, contextWindow: 128_000, maxOutputTokens: 8_192, inputModalities: [...textOnly] },
  { id: 'deepseek-reasoner', ownedBy: 'deepseek', kind: 'chat', created: 1737331200, contextWindow: 128_000, maxOutputTokens: 65_536, inputModalities: [...textOnly] },
  { id: 'grok-3', ownedBy: 'xai', kind: 'chat', created: 1744156800, contextWindow: 131_072, inputModalities: [...textOnly] },
  { id: 'grok-2-vision-1212', ownedBy: 'xai', kind: 'chat', created: 1733961600, contextWindow: 32_768, inputModalities: [...textAndImage] },
  { id: 'mistral-large-latest', ownedBy: 'mistral', kind: 'chat', created: 1731024000, contextWindow: 131_072, inputModalities: [...textOnly] },
  { id: 'mistral-embed', ownedBy: 'mistral', kind: 'embedding', created: 1702425600, contextWindow: 8_192, inputModalities: [...textOnly] },
  { id: 'llama-3.3-70b-versatile', ownedBy: 'meta', kind: 'chat', created: 1733443200, contextWindow: 131_072, maxOutputTokens: 32_768, inputModalities: [...textOnly] },
];
