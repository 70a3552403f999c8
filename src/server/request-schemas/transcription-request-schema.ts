import { z } from 'zod';

/** Text fields of `POST /v1/audio/transcriptions` (the file is checked separately). */
export const transcriptionFieldsSchema = z.looseObject({
  model: z.string().min(1),
  response_format: z.enum(['json', 'text', 'srt', 'verbose_json', 'vtt']).optional(),
  language: z.string().optional(),
  prompt: z.string().optional(),
  temperature: z.coerce.number().min(0).max(1).optional(),
});
