// POST /v1/audio/transcriptions (multipart): a fixed transcript whose timing follows the uploaded WAV's or MP3's duration.
// Models named `*transcribe*` (gpt-4o-transcribe, gpt-4o-mini-transcribe) report token usage, as OpenAI bills them.
import type { EndpointAnswer, EndpointHandler } from './openai-simulator-endpoint.js';
import { invalidRequest } from './openai-simulator-errors.js';
import { mp3DurationSeconds } from './mp3-duration-seconds.js';
import { textField } from './openai-simulator-multipart.js';
import type { RequestBody } from './openai-simulator-validation.js';

/** Duration assumed for anything that is neither a readable RIFF/WAVE file nor an MPEG-1 Layer III file. */
const defaultDurationSeconds = 1;
const responseFormats = ['json', 'verbose_json', 'text', 'srt', 'vtt'] as const;
const plainText = 'text/plain; charset=utf-8';

/** Answers a transcription request. */
export const handleTranscription: EndpointHandler = ({ body, files }) => {
  const file = files.get('file')?.[0];
  if (!file) throw invalidRequest("Missing required parameter: 'file'.", 'file', 'missing_required_parameter');
  if (!textField(body, 'model'))
    throw invalidRequest("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  const duration = wavDurationSeconds(file.content) ?? mp3DurationSeconds(file.content) ?? defaultDurationSeconds;
  const text = `Simulated transcript of ${file.filename || 'audio'}`;
  const model = textField(body, 'model') ?? '';
  const usage = model.includes('transcribe')
    ? tokenUsage(duration, textField(body, 'prompt'), text)
    : durationUsage(duration);
  return transcriptionAnswer({
    format: responseFormatOf(body),
    text,
    duration,
    withWords: wantsWordTimestamps(body),
    usage,
  });
};

/**
 * Duration of a RIFF/WAVE file as a decoder plays it: the sample bytes sent (to the end of the upload) over sample
 * rate × channels × bytes per sample. Like real decoders it ignores the header's byte rate and declared data size.
 */
export function wavDurationSeconds(content: Buffer): number | undefined {
  if (content.length < 12 || content.toString('ascii', 0, 4) !== 'RIFF' || content.toString('ascii', 8, 12) !== 'WAVE')
    return undefined;
  let bytesPerSecond: number | undefined;
  for (let offset = 12; offset + 8 <= content.length;) {
    const chunkId = content.toString('ascii', offset, offset + 4);
    const chunkSize = content.readUInt32LE(offset + 4);
    if (chunkId === 'fmt ' && offset + 24 <= content.length) {
      const channels = content.readUInt16LE(offset + 10);
      const sampleRate = content.readUInt32LE(offset + 12);
      const bitsPerSample = content.readUInt16LE(offset + 22);
      bytesPerSecond = (sampleRate * channels * bitsPerSample) / 8;
    }
    if (chunkId === 'data') return bytesPerSecond ? (content.length - offset - 8) / bytesPerSecond : undefined;
    offset += 8 + chunkSize + (chunkSize % 2);
  }
  return undefined;
}

function responseFormatOf(body: RequestBody): (typeof responseFormats)[number] {
  const format = textField(body, 'response_format') ?? 'json';
  const known = responseFormats.find((candidate) => candidate === format);
  if (known) return known;
  throw invalidRequest(
    `Invalid value: '${format}'. Supported values are: 'json', 'text', 'srt', 'verbose_json', and 'vtt'.`,
    'response_format',
    'invalid_value',
  );
}

function wantsWordTimestamps(body: RequestBody): boolean {
  const granularities = [body['timestamp_granularities[]'], body.timestamp_granularities].flat();
  return granularities.includes('word');
}

/** Everything one answer is made of. */
interface TranscriptionAnswer {
  format: (typeof responseFormats)[number];
  text: string;
  duration: number;
  withWords: boolean;
  usage: TranscriptionUsage;
}

function transcriptionAnswer({ format, text, duration, withWords, usage }: TranscriptionAnswer): EndpointAnswer {
  switch (format) {
    case 'json':
      return { kind: 'json', body: { text, usage } };
    case 'verbose_json':
      return { kind: 'json', body: verboseTranscription(text, duration, withWords, usage) };
    case 'text':
      return { kind: 'text', body: `${text}\n`, contentType: plainText };
    case 'srt':
      return {
        kind: 'text',
        body: `1\n00:00:00,000 --> ${formatTimestamp(duration, ',')}\n${text}\n\n`,
        contentType: plainText,
      };
    case 'vtt':
      return {
        kind: 'text',
        body: `WEBVTT\n\n00:00:00.000 --> ${formatTimestamp(duration, '.')}\n${text}\n\n`,
        contentType: plainText,
      };
  }
}

/** OpenAI's transcription usage: by duration (whisper-1) or by tokens (gpt-4o-transcribe). */
type TranscriptionUsage = ReturnType<typeof durationUsage> | ReturnType<typeof tokenUsage>;

/** Audio tokens per second of the simulated token-billed models. */
const audioTokensPerSecond = 10;

function durationUsage(duration: number) {
  return { type: 'duration', seconds: Math.ceil(duration) };
}

/** `{type: 'tokens'}` usage: audio tokens by the second, text tokens of the prompt, one output token per word. */
function tokenUsage(duration: number, prompt: string | undefined, text: string) {
  const audioTokens = Math.ceil(duration * audioTokensPerSecond);
  const textTokens = prompt ? prompt.split(/\s+/).filter(Boolean).length : 0;
  const outputTokens = text.split(' ').length;
  const inputTokens = audioTokens + textTokens;
  return {
    type: 'tokens',
    input_tokens: inputTokens,
    input_token_details: { text_tokens: textTokens, audio_tokens: audioTokens },
    output_tokens: outputTokens,
    total_tokens: inputTokens + outputTokens,
  };
}

function verboseTranscription(text: string, duration: number, withWords: boolean, usage: TranscriptionUsage) {
  const segment = {
    id: 0,
    seek: 0,
    start: 0,
    end: duration,
    text,
    tokens: [],
    temperature: 0,
    avg_logprob: 0,
    compression_ratio: 1,
    no_speech_prob: 0,
  };
  const transcription: RequestBody = {
    task: 'transcribe',
    language: 'english',
    duration,
    text,
    segments: [segment],
    usage,
  };
  if (withWords) transcription.words = evenlySpacedWords(text, duration);
  return transcription;
}

function evenlySpacedWords(text: string, duration: number) {
  const words = text.split(' ');
  const step = duration / words.length;
  return words.map((word, index) => ({ word, start: index * step, end: (index + 1) * step }));
}

/** `HH:MM:SS,mmm` (SRT) or `HH:MM:SS.mmm` (WebVTT). */
function formatTimestamp(seconds: number, millisecondSeparator: string): string {
  const totalMilliseconds = Math.round(seconds * 1000);
  const hours = Math.floor(totalMilliseconds / 3_600_000);
  const minutes = Math.floor((totalMilliseconds % 3_600_000) / 60_000);
  const wholeSeconds = Math.floor((totalMilliseconds % 60_000) / 1000);
  const milliseconds = totalMilliseconds % 1000;
  const pad = (value: number, width = 2) => String(value).padStart(width, '0');
  return `${pad(hours)}:${pad(minutes)}:${pad(wholeSeconds)}${millisecondSeparator}${pad(milliseconds, 3)}`;
}
