import type { Attributes } from '@opentelemetry/api';
import { genAiAttributeNames } from './gen-ai-attribute-names.js';

/** The metric attributes of one (operation, provider, model, error) combination: plain, and with each token type. */
export interface GenAiAttributeSet {
  plain: Attributes;
  input: Attributes;
  output: Attributes;
}

/** Combinations kept: models and error types are few, so this is never reached in practice. */
const maximumSets = 4096;

/** The set of every combination past the cap (`otel.metric.overflow`, the SDK's name for it). */
const overflowSet: GenAiAttributeSet = {
  plain: { 'otel.metric.overflow': true },
  input: { 'otel.metric.overflow': true, [genAiAttributeNames.tokenType]: 'input' },
  output: { 'otel.metric.overflow': true, [genAiAttributeNames.tokenType]: 'output' },
};

/**
 * Metric attribute objects made once per combination and reused: a histogram record then allocates no attribute
 * object, and finds its point by the object's identity (ExplicitBucketHistogram). An empty `errorType` means none (the attribute is left out); an empty provider too (a request no channel took).
 */
export class GenAiAttributeSets {
  private readonly sets = new Map<string, Map<string, Map<string, Map<string, GenAiAttributeSet>>>>();
  private size = 0;

  /** The same objects for the same values. */
  of(operation: string, provider: string, model: string, errorType: string): GenAiAttributeSet {
    const byProvider = this.levelOf(this.sets, operation);
    const byModel = this.levelOf(byProvider, provider);
    const byError = this.levelOf(byModel, model);
    const known = byError.get(errorType);
    if (known) return known;
    // Past the cap every new combination shares one set, as the SDK's cardinality limit does: kept points never split.
    if (this.size >= maximumSets) return overflowSet;
    const plain: Attributes = { [genAiAttributeNames.operationName]: operation };
    if (provider !== '') plain[genAiAttributeNames.providerName] = provider;
    plain[genAiAttributeNames.requestModel] = model;
    if (errorType !== '') plain[genAiAttributeNames.errorType] = errorType;
    const set: GenAiAttributeSet = {
      plain,
      input: { ...plain, [genAiAttributeNames.tokenType]: 'input' },
      output: { ...plain, [genAiAttributeNames.tokenType]: 'output' },
    };
    byError.set(errorType, set);
    this.size += 1;
    return set;
  }

  private levelOf<Inner>(level: Map<string, Map<string, Inner>>, key: string): Map<string, Inner> {
    let inner = level.get(key);
    if (!inner) {
      inner = new Map();
      level.set(key, inner);
    }
    return inner;
  }
}
