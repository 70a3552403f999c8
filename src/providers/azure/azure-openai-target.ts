import type { VendorChannel } from '../chat-adapter.js';
import type { OpenAiWireTarget } from '../openai/openai-wire-target.js';

/** The GA data-plane version used when a channel sets none. */
export const defaultAzureApiVersion = '2024-10-21';

/**
 * Azure OpenAI: the model is a deployment in the URL, `api-version` is a query parameter and the key
 * goes in `api-key`. Base URL: `https://<resource>.openai.azure.com`. With the setting `apiVersion: v1`
 * the newer `/openai/v1` surface is used, where the model stays in the body as on OpenAI.
 */
export function createAzureOpenAiTarget(channel: VendorChannel, deployment: string): OpenAiWireTarget {
  const apiVersion = channel.settings.apiVersion ?? defaultAzureApiVersion;
  const headers = { 'api-key': channel.secret };
  if (apiVersion === 'v1') return { urlFor: (path) => `${channel.baseUrl}/openai/v1${path}`, headers };
  const deploymentPath = `${channel.baseUrl}/openai/deployments/${encodeURIComponent(deployment)}`;
  return { urlFor: (path) => `${deploymentPath}${path}?api-version=${encodeURIComponent(apiVersion)}`, headers };
}
