import { z } from 'zod';

/** OpenAI's video sizes (`VideoSize`), width x height in pixels. */
export const openAiVideoSizes = ['720x1280', '1280x720', '1024x1792', '1792x1024'] as const;

/** The model `POST /v1/videos` uses when none is named (OpenAI's default). */
export const defaultOpenAiVideoModel = 'sora-2';

/** OpenAI's default `seconds`. */
export const defaultOpenAiVideoSeconds = 4;

/** The longest video either surface may ask for, in seconds (the spec's 20). */
export const maxRequestedVideoSeconds = 20;

/**
 * `POST /v1/videos` as JSON or multipart text fields. `seconds` is OpenAI's string ("4", "8", "12") or a JSON integer;
 * any whole number from 1 to 20 is accepted and the task layer makes the nearest length the vendor can (docs/VIDEO.md).
 */
export const openAiVideoRequestSchema = z.object({
  prompt: z
    .string()
    .min(1, { error: 'must describe the video (it is empty)' })
    .max(32_000, { error: 'must be at most 32000 characters' }),
  model: z.string().min(1, { error: 'must name a video model' }).default(defaultOpenAiVideoModel),
  seconds: z
    .union([z.string().regex(/^\d{1,3}$/), z.number().int()], {
      error: `must be a whole number of seconds from 1 to ${maxRequestedVideoSeconds}, e.g. "4", "8" or "12"`,
    })
    .transform(Number)
    .refine((seconds) => seconds >= 1 && seconds <= maxRequestedVideoSeconds, {
      error: `must be a whole number of seconds from 1 to ${maxRequestedVideoSeconds}, e.g. "4", "8" or "12"`,
    })
    .default(defaultOpenAiVideoSeconds),
  size: z.enum(openAiVideoSizes, { error: `must be one of ${openAiVideoSizes.join(', ')}` }).optional(),
});

/** A validated OpenAI video request. */
export type OpenAiVideoRequest = z.output<typeof openAiVideoRequestSchema>;

/** `720x1280` -> `{ width: 720, height: 1280 }` */
export function parseVideoSize(size: (typeof openAiVideoSizes)[number]): { width: number; height: number } {
  const [width, height] = size.split('x').map(Number);
  return { width: width ?? 0, height: height ?? 0 };
}
