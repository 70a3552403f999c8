import type { OpenAiWireQuirks } from '../openai/openai-wire-quirks.js';

/** The GA data-plane version used when a channel sets none. */
export const defaultAzureApiVersion = '2024-10-21';

/**
 * Azure OpenAI: the model is a deployment in the URL, `api-version` is a query parameter and the key
 * goes in `api-key`. Base URL: `https://<resource>.openai.azure.com`. With the setting `apiVersion: v1`
 * the newer `/openai/v1` surface is used, where the model stays in the body as on OpenAI.
 */
export const azureOpenAiQuirks: OpenAiWireQuirks = {
  protocol: 'azure',
  urlFor(channel, deployment, path) {
    const apiVersion = channel.settings.apiVersion ?? defaultAzureApiVersion;
    if (apiVersion === 'v1') return `${channel.baseUrl}/openai/v1${path}`;
    return `${channel.baseUrl}/openai/deployments/${encodeURIComponent(deployment)}${path}?api-version=${encodeURIComponent(apiVersion)}`;
  },
  authHeaders: (channel) => ({ 'api-key': channel.secret }),
};
