import { z } from 'zod';
import { GatewayError } from '../../core/gateway-error.js';
import { speechContentTypes, type SpeechAudioFormat } from '../../core/speech-request.js';
import { tokenUsageOfCanonical } from '../../core/token-usage-of-canonical.js';
import type { VendorAdapter } from '../vendor-adapter.js';
import { geminiHeaders, geminiModelUrl } from './encode-gemini-request.js';
import { parseGeminiUsage } from './parse-gemini-usage.js';
import { wrapPcmAsWav } from './wrap-pcm-as-wav.js';

type GeminiSpeech = NonNullable<VendorAdapter['speech']>;

/** The formats the gateway makes of Gemini's PCM without an encoder: WAV (a header) and the PCM itself. */
const producibleFormats: readonly SpeechAudioFormat[] = ['wav', 'pcm'];

/**
 * Text to speech through Gemini's `generateContent` with `responseModalities: ["AUDIO"]` and a prebuilt voice.
 * Gemini answers base64 PCM (s16le, 24 kHz, mono): wrapped as WAV for `wav`, passed raw for `pcm`; mp3, opus, aac
 * and flac would need an encoder, so they are refused with a 400 naming the two it can make, as is a `speed` other
 * than 1 (Gemini has no such control) and a custom voice. `instructions` lead the text, as Gemini's guide steers
 * style ("Say cheerfully: ...").
 */
export const geminiSpeech: GeminiSpeech = {
  encode(request, call) {
    if (!producibleFormats.includes(request.responseFormat))
      throw new GatewayError(
        'invalid_request_error',
        `The model '${call.publicModelId}' answers ${producibleFormats.join(' or ')} audio only; set 'response_format' to 'wav' or 'pcm'.`,
        { param: 'response_format' },
      );
    if (request.speed !== undefined && request.speed !== 1)
      throw new GatewayError(
        'invalid_request_error',
        `'speed' is not supported with the model '${call.publicModelId}'.`,
        {
          param: 'speed',
        },
      );
    const text = request.instructions ? `${request.instructions}: ${request.input}` : request.input;
    const body = {
      contents: [{ role: 'user', parts: [{ text }] }],
      generationConfig: {
        responseModalities: ['AUDIO'],
        speechConfig: { voiceConfig: { prebuiltVoiceConfig: { voiceName: geminiVoiceName(request.voice) } } },
      },
    };
    return {
      url: geminiModelUrl(call.channel, call.upstreamModelId, 'generateContent'),
      headers: geminiHeaders(call.channel),
      body: JSON.stringify(body),
    };
  },
  decode(bodyText, request) {
    // Checked at the edge: an answer without base64 audio is no answer (dispatch answers 502 and bills nothing).
    const checked = speechAnswerSchema.safeParse(JSON.parse(bodyText));
    if (!checked.success) throw new Error('The Gemini answer carries no audio.');
    const chunks = checked.data.candidates[0]?.content.parts.flatMap((part) =>
      part.inlineData ? [Buffer.from(part.inlineData.data, 'base64')] : [],
    );
    if (!chunks || chunks.length === 0) throw new Error('The Gemini answer carries no audio.');
    const pcm = Buffer.concat(chunks);
    const metadata = checked.data.usageMetadata;
    return {
      audio: request.responseFormat === 'wav' ? wrapPcmAsWav(pcm) : pcm,
      contentType: speechContentTypes[request.responseFormat],
      usage: metadata ? tokenUsageOfCanonical(parseGeminiUsage(metadata)) : undefined,
    };
  },
};

/** Gemini's voice names are capitalised (`Kore`); OpenAI clients send voices in lower case. */
function geminiVoiceName(voice: string): string {
  return voice.charAt(0).toUpperCase() + voice.slice(1).toLowerCase();
}

/** A generateContent answer with AUDIO output: inline base64 data parts and the usage metadata. */
const speechAnswerSchema = z.object({
  candidates: z
    .array(
      z.object({
        content: z.object({
          parts: z.array(z.object({ inlineData: z.object({ mimeType: z.string(), data: z.string() }).optional() })),
        }),
      }),
    )
    .min(1),
  usageMetadata: z
    .object({
      promptTokenCount: z.number().optional(),
      candidatesTokenCount: z.number().optional(),
      totalTokenCount: z.number().optional(),
    })
    .optional(),
});
