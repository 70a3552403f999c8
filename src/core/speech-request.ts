/** The audio formats `POST /v1/audio/speech` may ask for (OpenAI's `response_format`). */
export const speechAudioFormats = ['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm'] as const;

/** One of the audio formats a speech request may ask for. */
export type SpeechAudioFormat = (typeof speechAudioFormats)[number];

/** The validated fields of a speech request that a translated channel (Gemini TTS) serves. */
export interface SpeechRequestFields {
  model: string;
  /** the text to speak, at most 4,096 characters */
  input: string;
  /** a built-in voice name, or the id of a custom voice */
  voice: string;
  /** the audio format asked for; `mp3` when the client named none */
  responseFormat: SpeechAudioFormat;
  /** how the vendor is to speak (tone, accent); absent without one */
  instructions?: string;
  /** playback speed, 0.25 to 4.0; absent: 1.0 */
  speed?: number;
  /** true when the client asked for `stream_format: "sse"` (speech.audio.delta events) instead of audio bytes */
  sse: boolean;
}

/** The Content-Type of each audio format, as OpenAI answers it. */
export const speechContentTypes: Readonly<Record<SpeechAudioFormat, string>> = {
  mp3: 'audio/mpeg',
  opus: 'audio/opus',
  aac: 'audio/aac',
  flac: 'audio/flac',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
};
