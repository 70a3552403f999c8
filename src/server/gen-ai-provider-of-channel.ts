import { assertNever } from '../core/assert-never.js';
import type { RoutableChannel } from '../routing/routing-table.js';

/** Presets of OpenAI-wire channels whose vendor the GenAI conventions name (their well-known `gen_ai.provider.name`). */
const providerOfPreset: ReadonlyMap<string, string> = new Map([
  ['openai', 'openai'],
  ['deepseek', 'deepseek'],
  ['xai', 'x_ai'],
  ['mistral', 'mistral_ai'],
  ['groq', 'groq'],
  ['perplexity', 'perplexity'],
]);

/**
 * The `gen_ai.provider.name` of a channel: the conventions' value for its protocol (anthropic, aws.bedrock,
 * azure.ai.openai, gcp.gemini, gcp.vertex_ai), for an OpenAI-wire channel its preset's vendor (deepseek, x_ai, ...), another preset's
 * own name (openrouter, together, ...), or `openai` for a custom OpenAI-compatible channel.
 */
export function genAiProviderOfChannel(channel: RoutableChannel): string {
  switch (channel.protocol) {
    case 'openai': {
      const preset = channel.preset ?? undefined;
      if (preset === undefined) return 'openai';
      return providerOfPreset.get(preset) ?? preset;
    }
    case 'azure':
      return 'azure.ai.openai';
    case 'anthropic':
      return 'anthropic';
    case 'gemini':
      return 'gcp.gemini';
    case 'bedrock':
      return 'aws.bedrock';
    case 'vertex':
      return 'gcp.vertex_ai';
    default:
      return assertNever(channel.protocol, 'channel protocol');
  }
}
