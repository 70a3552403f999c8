// Gemini TTS: a generateContent with `responseModalities: ["AUDIO"]` answers one inline part of base64 PCM (s16le,
// 24 kHz, mono) sized by the text, and usageMetadata with the text's tokens in and the audio's tokens out (25 a
// second), as gemini-2.5-*-preview-tts do. Checked as strictly as Gemini: a TTS model without AUDIO, or AUDIO
// without a prebuilt voice, is a 400.
import { GeminiSimulatedError } from './gemini-simulator-errors.js';
import type { GeminiSimulatorRequest } from './gemini-simulator-validation.js';

/** Bytes of PCM the simulator speaks per character of text (10 ms at 24 kHz, 16-bit mono). */
export const geminiSimulatedPcmBytesPerCharacter = 480;
/** Gemini's audio tokens per second of output. */
const audioTokensPerSecond = 25;
/** Bytes of one second of 24 kHz 16-bit mono PCM. */
const pcmBytesPerSecond = 48_000;

/** True when the request asks for audio output (a TTS call). */
export function asksForAudio(request: GeminiSimulatorRequest): boolean {
  const modalities = request.generationConfig.responseModalities;
  return Array.isArray(modalities) && modalities.includes('AUDIO');
}

/** The answer of a TTS call: the PCM of the request's text and its usage. */
export function answerGeminiSpeech(request: GeminiSimulatorRequest, model: string): unknown {
  if (!model.includes('tts'))
    throw new GeminiSimulatedError(400, `Model ${model} does not support the requested response modalities: audio`);
  const speech = request.generationConfig.speechConfig as
    { voiceConfig?: { prebuiltVoiceConfig?: { voiceName?: unknown } } } | undefined;
  const voiceName = speech?.voiceConfig?.prebuiltVoiceConfig?.voiceName;
  if (typeof voiceName !== 'string' || voiceName.length === 0)
    throw new GeminiSimulatedError(400, 'speechConfig.voiceConfig.prebuiltVoiceConfig.voiceName is required.');
  const text = request.contents
    .flatMap((content) => content.parts.map((part) => (typeof part.text === 'string' ? part.text : '')))
    .join('');
  if (text.length === 0) throw new GeminiSimulatedError(400, 'The text to speak is empty.');
  const pcm = Buffer.alloc([...text].length * geminiSimulatedPcmBytesPerCharacter);
  const promptTokenCount = Math.ceil(text.length / 4);
  const candidatesTokenCount = Math.ceil((pcm.length * audioTokensPerSecond) / pcmBytesPerSecond);
  return {
    candidates: [
      {
        content: {
          role: 'model',
          parts: [{ inlineData: { mimeType: 'audio/L16;codec=pcm;rate=24000', data: pcm.toString('base64') } }],
        },
        finishReason: 'STOP',
        index: 0,
      },
    ],
    usageMetadata: { promptTokenCount, candidatesTokenCount, totalTokenCount: promptTokenCount + candidatesTokenCount },
    modelVersion: model,
  };
}
