/** A ready-made channel setting for a vendor. */
export interface VendorPreset {
  /** preset name used by `gateway channel create --preset` */
  name: string;
  /** label shown as `owned_by` for models the catalog does not know */
  ownedBy: string;
  /** the wire protocol: OpenAI's (passed through) or a translated one */
  protocol: 'openai' | 'anthropic' | 'gemini' | 'bedrock' | 'vertex';
  /** default base URL, including the version prefix */
  baseUrl: string;
  /**
   * fields beyond OpenAI's API description that the vendor documents and that change nothing about the price
   * (sampling knobs such as `top_k`), accepted on chat and legacy completions for this preset's channels only
   */
  extraFields?: readonly string[];
  /**
   * fields beyond OpenAI's API description that change the price or the model (OpenRouter's `models`, `provider`, ...):
   * refused unless the channel enables them in its `premiumFields` setting with a `premiumPriceRatio`
   */
  premiumFields?: readonly string[];
}

/** Sampling knobs that vLLM, Ollama and LM Studio document on their OpenAI-compatible endpoints. */
const localServerExtraFields = ['top_k', 'min_p', 'repetition_penalty'] as const;

/** Known vendors; a custom base URL always overrides the preset's. */
export const vendorPresets: readonly VendorPreset[] = [
  { name: 'anthropic', ownedBy: 'anthropic', protocol: 'anthropic', baseUrl: 'https://api.anthropic.com/v1' },
  {
    name: 'gemini',
    ownedBy: 'google',
    protocol: 'gemini',
    baseUrl: 'https://generativelanguage.googleapis.com/v1beta',
  },
  // The region is read from the host; change it with --base-url or the `region` setting.
  { name: 'bedrock', ownedBy: 'aws', protocol: 'bedrock', baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com' },
  // The project and location are settings (`project`, default the service-account key's; `location`, default global).
  { name: 'vertex', ownedBy: 'google', protocol: 'vertex', baseUrl: 'https://aiplatform.googleapis.com/v1' },
  { name: 'openai', ownedBy: 'openai', protocol: 'openai', baseUrl: 'https://api.openai.com/v1' },
  { name: 'deepseek', ownedBy: 'deepseek', protocol: 'openai', baseUrl: 'https://api.deepseek.com/v1' },
  { name: 'xai', ownedBy: 'xai', protocol: 'openai', baseUrl: 'https://api.x.ai/v1' },
  { name: 'mistral', ownedBy: 'mistral', protocol: 'openai', baseUrl: 'https://api.mistral.ai/v1' },
  { name: 'groq', ownedBy: 'groq', protocol: 'openai', baseUrl: 'https://api.groq.com/openai/v1' },
  {
    name: 'openrouter',
    ownedBy: 'openrouter',
    protocol: 'openai',
    baseUrl: 'https://openrouter.ai/api/v1',
    extraFields: ['top_k', 'min_p', 'top_a', 'repetition_penalty'],
    // `models` and `route` let OpenRouter serve another model than the one asked for (and priced); `provider` picks
    // providers at other prices; `plugins` adds billed web search or file parsing.
    premiumFields: ['models', 'route', 'provider', 'plugins'],
  },
  {
    name: 'together',
    ownedBy: 'together',
    protocol: 'openai',
    baseUrl: 'https://api.together.xyz/v1',
    extraFields: ['top_k', 'min_p', 'repetition_penalty'],
  },
  { name: 'fireworks', ownedBy: 'fireworks', protocol: 'openai', baseUrl: 'https://api.fireworks.ai/inference/v1' },
  { name: 'perplexity', ownedBy: 'perplexity', protocol: 'openai', baseUrl: 'https://api.perplexity.ai' },
  { name: 'moonshot', ownedBy: 'moonshot', protocol: 'openai', baseUrl: 'https://api.moonshot.ai/v1' },
  {
    name: 'dashscope',
    ownedBy: 'qwen',
    protocol: 'openai',
    baseUrl: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1',
  },
  { name: 'siliconflow', ownedBy: 'siliconflow', protocol: 'openai', baseUrl: 'https://api.siliconflow.com/v1' },
  {
    name: 'ollama',
    ownedBy: 'ollama',
    protocol: 'openai',
    baseUrl: 'http://127.0.0.1:11434/v1',
    extraFields: localServerExtraFields,
  },
  {
    name: 'vllm',
    ownedBy: 'vllm',
    protocol: 'openai',
    baseUrl: 'http://127.0.0.1:8000/v1',
    extraFields: localServerExtraFields,
  },
  {
    name: 'lmstudio',
    ownedBy: 'lmstudio',
    protocol: 'openai',
    baseUrl: 'http://127.0.0.1:1234/v1',
    extraFields: localServerExtraFields,
  },
];

/** The preset with that name, if any. */
export function findVendorPreset(name: string): VendorPreset | undefined {
  return vendorPresets.find((preset) => preset.name === name);
}
