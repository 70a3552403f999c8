import type { CatalogModel } from '../catalog-model.js';
import { textOnly } from './input-modalities.js';
import { releaseDate } from './release-date.js';
import { tokenPrices } from './token-prices.js';

/** OpenAI's built-in voices of `gpt-4o-mini-tts` (the API description's VoiceIdsShared plus the older fable, nova, onyx). */
const openAiVoices = [
  'alloy',
  'ash',
  'ballad',
  'coral',
  'echo',
  'fable',
  'nova',
  'onyx',
  'sage',
  'shimmer',
  'verse',
  'marin',
  'cedar',
];
/** The voices tts-1 and tts-1-hd speak (the newer ones are gpt-4o-mini-tts only). */
const ttsOneVoices = ['alloy', 'ash', 'coral', 'echo', 'fable', 'nova', 'onyx', 'sage', 'shimmer'];
/** Gemini TTS's prebuilt voices (speechConfig.voiceConfig.prebuiltVoiceConfig.voiceName). */
const geminiVoices = [
  'Zephyr',
  'Puck',
  'Charon',
  'Kore',
  'Fenrir',
  'Leda',
  'Orus',
  'Aoede',
  'Callirrhoe',
  'Autonoe',
  'Enceladus',
  'Iapetus',
  'Umbriel',
  'Algieba',
  'Despina',
  'Erinome',
  'Algenib',
  'Rasalgethi',
  'Laomedeia',
  'Achernar',
  'Alnilam',
  'Schedar',
  'Gacrux',
  'Pulcherrima',
  'Achird',
  'Zubenelgenubi',
  'Vindemiatrix',
  'Sadachbia',
  'Sadaltager',
  'Sulafat',
];

/**
 * Text-to-speech and moderation models. Prices: OpenAI's model pages (developers.openai.com/api/docs/models, tts-1
 * $15 and tts-1-hd $30 per million characters; gpt-4o-mini-tts $0.60 per million text tokens in, $12 per million
 * audio tokens out; moderations free) and Google's (ai.google.dev/gemini-api/docs/pricing: Gemini 2.5 Flash TTS
 * $0.50 in and $10 out, Pro TTS $1 and $20 per million tokens), Nov 2025.
 */
export const speechAndModerationModels: CatalogModel[] = [
  {
    id: 'tts-1',
    ownedBy: 'openai',
    kind: 'speech',
    created: 1681940951,
    inputModalities: [...textOnly],
    speechVoices: ttsOneVoices,
    speechInputUnit: 'characters',
    defaultPrices: tokenPrices(15, 0),
  },
  {
    id: 'tts-1-hd',
    ownedBy: 'openai',
    kind: 'speech',
    created: 1699046015,
    inputModalities: [...textOnly],
    speechVoices: ttsOneVoices,
    speechInputUnit: 'characters',
    defaultPrices: tokenPrices(30, 0),
  },
  {
    id: 'gpt-4o-mini-tts',
    ownedBy: 'openai',
    kind: 'speech',
    created: releaseDate('2025-03-20'),
    inputModalities: [...textOnly],
    speechVoices: openAiVoices,
    defaultPrices: tokenPrices(0.6, 12),
  },
  {
    id: 'gemini-2.5-flash-preview-tts',
    ownedBy: 'google',
    kind: 'speech',
    created: releaseDate('2025-05-20'),
    contextWindow: 8_192,
    inputModalities: [...textOnly],
    speechVoices: geminiVoices,
    defaultPrices: tokenPrices(0.5, 10),
  },
  {
    id: 'gemini-2.5-pro-preview-tts',
    ownedBy: 'google',
    kind: 'speech',
    created: releaseDate('2025-05-20'),
    contextWindow: 8_192,
    inputModalities: [...textOnly],
    speechVoices: geminiVoices,
    defaultPrices: tokenPrices(1, 20),
  },
  {
    id: 'omni-moderation-latest',
    ownedBy: 'openai',
    kind: 'moderation',
    created: releaseDate('2024-09-26'),
    inputModalities: ['text', 'image'],
    defaultPrices: tokenPrices(0, 0),
  },
  {
    id: 'text-moderation-latest',
    ownedBy: 'openai',
    kind: 'moderation',
    created: releaseDate('2022-08-10'),
    inputModalities: [...textOnly],
    defaultPrices: tokenPrices(0, 0),
  },
];
