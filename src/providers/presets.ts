import type { ToolIdFormat } from './shared/tool-ids.js';

/** The wire protocol a preset speaks; each has its own adapter under src/providers/. */
export type ProviderProtocol = 'openai' | 'anthropic' | 'google';

/** OpenAI's two wires: Chat Completions, or the Responses API (src/providers/openai-responses/). */
export const OPENAI_WIRES = ['chat', 'responses'] as const;
export type OpenAIWire = (typeof OPENAI_WIRES)[number];

/** Named endpoints: which wire protocol, where they live, which variable holds the key, their quirks. */
export interface ProviderPreset {
  name: string;
  /** The wire protocol (and so the adapter). Default 'openai' (Chat Completions). */
  protocol?: ProviderProtocol;
  baseURL: string;
  /** Environment variable with the API key; undefined for local servers that need none. */
  keyVariable?: string;
  /** Further variables tried, in order, when `keyVariable` is unset. */
  altKeyVariables?: string[];
  /** Environment variable that overrides the base URL. */
  baseUrlVariable?: string;
  defaultModel?: string;
  /** The default model is one of the preset's own endpoint: another base URL (a local server) must be told its model. */
  defaultModelAtOwnEndpointOnly?: true;
  /** Reasoning must be sent back on later requests when tools are in play. */
  replayReasoning?: boolean;
  local?: boolean;
  /** The tool-call id format the endpoint demands; ids that do not fit are remapped (default: verbatim). */
  idFormat?: ToolIdFormat;
  /**
   * The wire for an 'openai' protocol preset (default 'chat'); 'auto': Responses for OpenAI's own
   * reasoning models (o-series, gpt-5) at the preset's own endpoint, Chat Completions otherwise.
   */
  wire?: OpenAIWire | 'auto';
  /** false: no model of this endpoint takes images (unset: depends on the model; see image-capability.ts). */
  images?: false;
  /** The endpoint takes OpenAI's `prompt_cache_key` and `prompt_cache_retention` (unset: they are not sent). */
  promptCacheFields?: true;
}

export const PRESETS: Record<string, ProviderPreset> = {
  anthropic: { name: 'anthropic', protocol: 'anthropic', baseURL: 'https://api.anthropic.com', keyVariable: 'ANTHROPIC_API_KEY', baseUrlVariable: 'ANTHROPIC_BASE_URL', defaultModel: 'claude-sonnet-4-5' },
  openai: { name: 'openai', baseURL: 'https://api.openai.com/v1', keyVariable: 'OPENAI_API_KEY', baseUrlVariable: 'OPENAI_BASE_URL', defaultModel: 'gpt-4.1', defaultModelAtOwnEndpointOnly: true, idFormat: 'max40', promptCacheFields: true, wire: 'auto' },
  deepseek: { name: 'deepseek', baseURL: 'https://api.deepseek.com/v1', keyVariable: 'DEEPSEEK_API_KEY', defaultModel: 'deepseek-chat', replayReasoning: true, images: false },
  qwen: { name: 'qwen', baseURL: 'https://dashscope.aliyuncs.com/compatible-mode/v1', keyVariable: 'DASHSCOPE_API_KEY', defaultModel: 'qwen-plus' },
  moonshot: { name: 'moonshot', baseURL: 'https://api.moonshot.ai/v1', keyVariable: 'MOONSHOT_API_KEY', defaultModel: 'kimi-k2-0905-preview', replayReasoning: true },
  zhipu: { name: 'zhipu', baseURL: 'https://open.bigmodel.cn/api/paas/v4', keyVariable: 'ZHIPUAI_API_KEY', defaultModel: 'glm-4.6', replayReasoning: true },
  openrouter: { name: 'openrouter', baseURL: 'https://openrouter.ai/api/v1', keyVariable: 'OPENROUTER_API_KEY' },
  groq: { name: 'groq', baseURL: 'https://api.groq.com/openai/v1', keyVariable: 'GROQ_API_KEY' },
  mistral: { name: 'mistral', baseURL: 'https://api.mistral.ai/v1', keyVariable: 'MISTRAL_API_KEY', defaultModel: 'mistral-medium-latest', idFormat: 'alnum9' },
  google: {
    name: 'google',
    protocol: 'google',
    baseURL: 'https://generativelanguage.googleapis.com',
    keyVariable: 'GEMINI_API_KEY',
    altKeyVariables: ['GOOGLE_API_KEY'],
    baseUrlVariable: 'GOOGLE_GEMINI_BASE_URL',
    defaultModel: 'gemini-2.5-flash',
  },
  ollama: { name: 'ollama', baseURL: 'http://127.0.0.1:11434/v1', baseUrlVariable: 'OLLAMA_BASE_URL', local: true },
  vllm: { name: 'vllm', baseURL: 'http://127.0.0.1:8000/v1', baseUrlVariable: 'VLLM_BASE_URL', local: true },
  lmstudio: { name: 'lmstudio', baseURL: 'http://127.0.0.1:1234/v1', baseUrlVariable: 'LMSTUDIO_BASE_URL', local: true },
};

/** Other names users type for a preset. */
export const PRESET_ALIASES: Record<string, string> = { gemini: 'google' };
