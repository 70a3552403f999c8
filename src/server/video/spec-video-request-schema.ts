import { z } from 'zod';

/** The video lengths the spec allows (spec §4.9, §8), in seconds. */
export const specVideoDurations = [5, 10, 15, 20] as const;

/** The spec's default length when `duration` is absent: the shortest (the spec names no default). */
export const defaultSpecVideoDuration = 5;

const durationError = `must be one of ${specVideoDurations.join(', ')} (seconds, an integer)`;

/** `POST /v1/videos/generations` (spec §4.9): `async` must be `true`, `duration` one of the spec's lengths. */
export const specVideoRequestSchema = z.object({
  model: z.string().min(1, { error: 'must name a video model' }),
  prompt: z.string().refine((prompt) => prompt.trim().length > 0, { error: 'must describe the video (it is empty)' }),
  duration: z
    .number({ error: durationError })
    .refine((duration) => (specVideoDurations as readonly number[]).includes(duration), { error: durationError })
    .default(defaultSpecVideoDuration),
  async: z.literal(true, {
    error: 'must be true: video tasks run asynchronously; poll GET /v1/videos/generations/{task_id}',
  }),
});

/** A validated spec video request. */
export type SpecVideoRequest = z.output<typeof specVideoRequestSchema>;
