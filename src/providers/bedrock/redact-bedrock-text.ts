import { redactUpstreamText } from '../openai/redact-upstream-text.js';

const arnPattern = /\barn:aws[a-z-]*:[^\s"'<>]+/gi;
const accessKeyIdPattern = /\b(?:AKIA|ASIA)[A-Z0-9]{12,}\b/g;
const accountIdPattern = /\b\d{12}\b/g;

/** Removes ARNs, AWS account ids and access key ids, then everything `redactUpstreamText` removes, from an AWS message. */
export function redactBedrockText(text: string): string {
  return redactUpstreamText(
    text.replace(arnPattern, '[arn]').replace(accessKeyIdPattern, '[redacted]').replace(accountIdPattern, '[account]'),
  );
}
