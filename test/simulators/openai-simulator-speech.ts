// POST /v1/audio/speech and POST /v1/moderations, validated as strictly as OpenAI does (CreateSpeechRequest has
// additionalProperties: false). Speech answers small valid files of the asked format (a WAV header and silence, MP3
// frame headers, ...) sized by the input, or with `stream_format: "sse"` speech.audio.delta events and a
// speech.audio.done event carrying token usage. Moderations answer one result per input, flagging any text with "kill".
import type { EndpointHandler } from './openai-simulator-endpoint.js';
import { invalidRequest } from './openai-simulator-errors.js';
import { randomIdentifier } from './openai-simulator-text.js';
import { requireField, type RequestBody } from './openai-simulator-validation.js';

const speechFields = new Set(['model', 'input', 'instructions', 'voice', 'response_format', 'speed', 'stream_format']);
const speechFormats = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;
type SpeechFormat = (typeof speechFormats)[number];
const contentTypes: Record<SpeechFormat, string> = {
  mp3: 'audio/mpeg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};
/** Bytes of 24 kHz 16-bit mono PCM the simulator speaks per input character (10 ms each). */
export const simulatedPcmBytesPerCharacter = 480;
/** Audio output tokens the simulator reports per input character in its speech.audio.done usage. */
export const simulatedAudioTokensPerCharacter = 2;
/** Bytes of audio per speech.audio.delta event. */
const deltaBytes = 4096;

/** Answers a speech request: audio bytes, or speech events when `stream_format` is `sse`. */
export const handleSpeech: EndpointHandler = ({ body }) => {
  for (const key of Object.keys(body))
    if (!speechFields.has(key)) throw invalidRequest(`Unrecognized request argument supplied: ${key}`, key);
  requireField(body, 'model');
  requireField(body, 'input');
  requireField(body, 'voice');
  const model = String(body.model);
  const input = body.input;
  if (typeof input !== 'string' || input.length === 0 || input.length > 4096)
    throw invalidRequest("Invalid value for 'input': must be a string of 1 to 4096 characters.", 'input');
  checkVoice(body.voice);
  const format = formatOf(body);
  const speed = body.speed;
  if (speed !== undefined && (typeof speed !== 'number' || speed < 0.25 || speed > 4))
    throw invalidRequest("Invalid value for 'speed': must be between 0.25 and 4.0.", 'speed');
  const streamFormat = body.stream_format ?? 'audio';
  if (streamFormat !== 'audio' && streamFormat !== 'sse')
    throw invalidRequest("Invalid value for 'stream_format': must be 'sse' or 'audio'.", 'stream_format');
  const ttsOne = model.startsWith('tts-1');
  if (ttsOne && body.instructions !== undefined)
    throw invalidRequest('Instructions are not supported for tts-1 or tts-1-hd.', 'instructions');
  if (ttsOne && streamFormat === 'sse')
    throw invalidRequest("stream_format 'sse' is not supported for tts-1 or tts-1-hd.", 'stream_format');
  const characters = [...input].length;
  const audio = simulatedSpeechAudio(format, characters);
  if (streamFormat === 'audio') return { kind: 'binary', body: audio, contentType: contentTypes[format] };
  const deltas: unknown[] = [];
  for (let offset = 0; offset < audio.length; offset += deltaBytes)
    deltas.push({ type: 'speech.audio.delta', audio: audio.subarray(offset, offset + deltaBytes).toString('base64') });
  const inputTokens = Math.ceil(characters / 4);
  const outputTokens = characters * simulatedAudioTokensPerCharacter;
  return {
    kind: 'stream',
    plan: {
      framing: 'speech',
      leadingChunks: [],
      contentChunks: deltas,
      trailingChunks: [
        {
          type: 'speech.audio.done',
          usage: { input_tokens: inputTokens, output_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
        },
      ],
    },
  };
};

/** The audio file the simulator answers for `characters` of input in `format`: valid headers, silence or frames. */
export function simulatedSpeechAudio(format: SpeechFormat, characters: number): Buffer {
  const pcm = Buffer.alloc(characters * simulatedPcmBytesPerCharacter);
  switch (format) {
    case 'pcm':
      return pcm;
    case 'wav':
      return wavOf(pcm);
    case 'mp3':
      // One MPEG-1 Layer III frame header (128 kb/s, 44.1 kHz) a character, each frame 417 bytes of silence.
      return Buffer.concat(
        Array.from({ length: characters }, () => Buffer.concat([mp3FrameHeader, Buffer.alloc(413)])),
      );
    case 'opus':
      return Buffer.concat([Buffer.from('OggS', 'ascii'), Buffer.alloc(24 + characters * 8)]);
    case 'aac':
      return Buffer.concat(
        Array.from({ length: characters }, () => Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x01, 0x7f, 0xfc])),
      );
    case 'flac':
      return Buffer.concat([Buffer.from('fLaC', 'ascii'), Buffer.alloc(38 + characters * 8)]);
    default: {
      const unreachable: never = format;
      throw new Error(`unknown format ${String(unreachable)}`);
    }
  }
}

const mp3FrameHeader = Buffer.from([0xff, 0xfb, 0x90, 0x64]);

function wavOf(pcm: Buffer): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + pcm.length, 4);
  header.write('WAVEfmt ', 8, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(24_000, 24);
  header.writeUInt32LE(48_000, 28);
  header.writeUInt16LE(2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(pcm.length, 40);
  return Buffer.concat([header, pcm]);
}

function checkVoice(voice: unknown): void {
  if (typeof voice === 'string' && voice.length > 0) return;
  if (typeof voice === 'object' && voice !== null && typeof (voice as { id?: unknown }).id === 'string') return;
  throw invalidRequest("Invalid value for 'voice': must be a voice name or an object with an 'id'.", 'voice');
}

function formatOf(body: RequestBody): SpeechFormat {
  const format = body.response_format ?? 'mp3';
  const known = speechFormats.find((candidate) => candidate === format);
  if (!known)
    throw invalidRequest(
      `Invalid value for 'response_format': must be one of ${speechFormats.join(', ')}.`,
      'response_format',
    );
  return known;
}

const moderationCategories = [
  'harassment',
  'harassment/threatening',
  'hate',
  'hate/threatening',
  'illicit',
  'illicit/violent',
  'self-harm',
  'self-harm/intent',
  'self-harm/instructions',
  'sexual',
  'sexual/minors',
  'violence',
  'violence/graphic',
];

/** Answers a moderation request: one result per input (string, or the parts of a multi-modal input as one). */
export const handleModeration: EndpointHandler = ({ body }) => {
  requireField(body, 'input');
  const model = typeof body.model === 'string' ? body.model : 'omni-moderation-latest';
  const inputs = moderationInputs(body.input);
  return {
    kind: 'json',
    body: { id: `modr-${randomIdentifier()}`, model, results: inputs.map((text) => moderationResult(text)) },
  };
};

/** The texts to classify; a list of parts is one input (its texts joined), as OpenAI classifies it. */
function moderationInputs(input: unknown): string[] {
  if (typeof input === 'string') return [input];
  if (!Array.isArray(input) || input.length === 0)
    throw invalidRequest("Invalid value for 'input': must be a string or a non-empty array.", 'input');
  if (input.every((item) => typeof item === 'string')) return input as string[];
  const texts: string[] = [];
  for (const [index, part] of (input as unknown[]).entries()) {
    const { type, text, image_url: imageUrl } = (part ?? {}) as { type?: unknown; text?: unknown; image_url?: unknown };
    if (type === 'text' && typeof text === 'string') texts.push(text);
    else if (type === 'image_url' && typeof (imageUrl as { url?: unknown } | undefined)?.url === 'string') continue;
    else
      throw invalidRequest(`Invalid value for 'input[${index}]': must be a text or image_url part.`, `input[${index}]`);
  }
  return [texts.join(' ')];
}

function moderationResult(text: string): unknown {
  const flagged = /kill/i.test(text);
  const categories = Object.fromEntries(moderationCategories.map((name) => [name, flagged && name === 'violence']));
  const scores = Object.fromEntries(
    moderationCategories.map((name) => [name, flagged && name === 'violence' ? 0.9 : 0.001]),
  );
  const appliedTypes = Object.fromEntries(moderationCategories.map((name) => [name, ['text']]));
  return { flagged, categories, category_scores: scores, category_applied_input_types: appliedTypes };
}
