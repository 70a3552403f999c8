/**
 * The explicit histogram bucket boundaries the OpenTelemetry GenAI metric conventions recommend, one list per
 * instrument (semantic-conventions-genai, gen-ai-metrics.md).
 */
export const genAiBucketBoundaries = {
  /** `gen_ai.client.token.usage`, in tokens: powers of 4 from 1 to 4^13 */
  tokenUsage: [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 16777216, 67108864],
  /** `gen_ai.client.operation.duration` and `gen_ai.server.request.duration`, in seconds: doubling from 10 ms */
  duration: [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92],
  /** `gen_ai.server.time_to_first_token`, in seconds */
  timeToFirstToken: [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5, 5.0, 7.5, 10.0],
  /** `gen_ai.server.time_per_output_token`, in seconds */
  timePerOutputToken: [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5],
} as const;
