import type { Provider } from '../contracts/provider.js';
import type { CacheTtl } from './anthropic/cache-breakpoints.js';
import { PRESET_ALIASES, PRESETS, type OpenAIWire, type ProviderPreset } from './presets.js';
import { isOpenAIReasoningModel } from './openai-responses/reasoning-models.js';
import { blockedPortAdvice, blockedPortOf } from './shared/blocked-ports.js';
import { agentEnvironment } from '../secrets/held-secrets.js';
import { didYouMean } from '../contracts/did-you-mean.js';
import type { ServerSearchOptions } from './shared/server-search.js';
import { keyVariables, type BaseUrlSource, type ProviderSetupProblem } from './provider-setup-problem.js';

export interface ProviderSettings {
  /** A preset name (openai, deepseek, ollama, …). Default "openai". */
  provider?: string;
  /** The model; default the preset's. */
  model?: string;
  apiKey?: string;
  baseUrl?: string;
  /** A base URL from a config file: the preset's base-URL variable in the environment beats it. */
  configBaseUrl?: string;
  /** Environment to read keys and base URLs from (default process.env). */
  env?: Record<string, string | undefined>;
  /** Extended thinking budget in tokens (Anthropic and Gemini; shown to the user as thinking). */
  thinking?: number;
  /** How long a streamed reply may send nothing; default the adapter's, longer for local servers. */
  idleTimeoutMs?: number;
  /** How long the server may send nothing at all before its first byte; unset: the idle limit. */
  firstByteTimeoutMs?: number;
  /** The OpenAI wire: chat or responses; default the preset's choice for the model. */
  wire?: OpenAIWire;
  /** Anthropic's cache lifetime for the tools and system prompt, or "off" for no breakpoints (default "5m"). */
  cacheTtl?: CacheTtl | 'off';
}

export interface ResolvedProvider {
  /** The provider's own server-side web search, when the user enabled it (see serverSearchWire). */
  webSearch?: ServerSearchOptions;
  preset: ProviderPreset;
  model: string;
  apiKey: string;
  baseURL: string;
  thinking?: number;
  /** How long a streamed reply may send nothing before it is given up; unset: the adapter's default. */
  idleTimeoutMs?: number;
  /** How long the server may send nothing at all before its first byte; unset: the idle limit. */
  firstByteTimeoutMs?: number;
  /** For the 'openai' protocol: which of its wires (unset for the others). */
  wire?: OpenAIWire;
  cacheTtl?: CacheTtl | 'off';
}

/** A local server may take minutes before its first token (a large prompt on a CPU), so it gets the old request limit. */
const LOCAL_IDLE_TIMEOUT_MS = 600_000;

export class ConfigError extends Error {
  override name = 'ConfigError';

  /** Set when a provider could not be resolved: the facts, for a front end to word in its own terms. */
  readonly problem: ProviderSetupProblem | undefined;

  constructor(message: string, problem?: ProviderSetupProblem) {
    super(message);
    this.problem = problem;
  }
}

export function isKnownProvider(name: string): boolean {
  return PRESETS[PRESET_ALIASES[name] ?? name] !== undefined;
}

/** 'Unknown provider "antropic" (did you mean "anthropic"?). Known providers: …' */
export function unknownProviderMessage(name: string): string {
  return `Unknown provider "${name}"${didYouMean(name, [...Object.keys(PRESETS), ...Object.keys(PRESET_ALIASES)])}. Known providers: ${Object.keys(PRESETS).join(', ')}`;
}

/** Works out which endpoint, model and key to use, or says exactly what is missing. */
export function resolveProvider(settings: ProviderSettings): ResolvedProvider {
  const env = settings.env ?? agentEnvironment();
  const name = settings.provider ?? 'openai';
  const preset = PRESETS[PRESET_ALIASES[name] ?? name];
  if (!preset) throw new ConfigError(`${unknownProviderMessage(name)}.`);
  const keyFromEnv = [preset.keyVariable, ...(preset.altKeyVariables ?? [])].map((variable) => (variable ? env[variable] : undefined)).find(Boolean);
  const apiKey = settings.apiKey ?? keyFromEnv ?? (preset.local || settings.baseUrl || settings.configBaseUrl ? 'not-needed' : undefined);
  const fromEnv = preset.baseUrlVariable ? env[preset.baseUrlVariable] || undefined : undefined;
  const baseURL = settings.baseUrl ?? fromEnv ?? settings.configBaseUrl ?? preset.baseURL;
  const model = settings.model ?? (preset.defaultModelAtOwnEndpointOnly && baseURL !== preset.baseURL ? undefined : preset.defaultModel);
  if (!apiKey || !model) {
    const problem: ProviderSetupProblem = { kind: 'not_set_up', preset, missingKey: !apiKey, missingModel: !model, baseURL, baseUrlFromEnv: fromEnv !== undefined, exampleModel: exampleModel(preset, baseURL) };
    const missing = [...(apiKey ? [] : [`${keyVariables(preset)} (the ${preset.name} API key)`]), ...(model ? [] : [`a model (e.g. ${problem.exampleModel})`])];
    throw new ConfigError(`Provider "${preset.name}" is not set up. Missing: ${missing.join('; ')}.`, problem);
  }
  const source: BaseUrlSource = settings.baseUrl !== undefined ? 'setting' : fromEnv !== undefined ? 'environment' : settings.configBaseUrl !== undefined ? 'config' : 'preset';
  checkBaseUrl(baseURL, { source, ...(source === 'environment' ? { variable: preset.baseUrlVariable! } : {}) });
  if (settings.thinking !== undefined && preset.protocol !== 'anthropic' && preset.protocol !== 'google') {
    throw new ConfigError(`A thinking budget is for the anthropic and google providers; with ${preset.name}, thinking comes with the model.`, { kind: 'thinking_unsupported', preset: preset.name });
  }
  const idleTimeoutMs = settings.idleTimeoutMs ?? (preset.local ? LOCAL_IDLE_TIMEOUT_MS : undefined);
  const wire = openaiWire(preset, model!, baseURL, settings.wire);
  return {
    ...(wire ? { wire } : {}),
    preset,
    model: model!,
    apiKey: apiKey!,
    baseURL,
    ...(idleTimeoutMs !== undefined ? { idleTimeoutMs } : {}),
    ...(settings.firstByteTimeoutMs !== undefined ? { firstByteTimeoutMs: settings.firstByteTimeoutMs } : {}),
    ...(settings.thinking !== undefined ? { thinking: settings.thinking } : {}),
    ...(settings.cacheTtl !== undefined ? { cacheTtl: settings.cacheTtl } : {}),
  };
}

/**
 * Which OpenAI wire: the one asked for, else the preset's. 'auto' takes Responses only for OpenAI's
 * own reasoning models at OpenAI's own endpoint (another server at OPENAI_BASE_URL may speak Chat
 * Completions alone).
 */
function openaiWire(preset: ProviderPreset, model: string, baseURL: string, asked: OpenAIWire | undefined): OpenAIWire | undefined {
  if (preset.protocol !== undefined && preset.protocol !== 'openai') {
    if (asked) throw new ConfigError(`The wire chooses between OpenAI's Chat Completions and Responses wires; ${preset.name} speaks its own API.`, { kind: 'wire_unsupported', preset: preset.name });
    return undefined;
  }
  if (asked) return asked;
  if (preset.wire === 'auto') return baseURL === preset.baseURL && isOpenAIReasoningModel(model) ? 'responses' : 'chat';
  return preset.wire ?? 'chat';
}

/**
 * Which server-side web search the resolved provider has: Anthropic's web search tool, OpenAI's
 * `web_search` on the Responses wire, Gemini's Google Search grounding; undefined for the rest
 * (Chat Completions has none), which take the web_search function tool instead.
 */
export function serverSearchWire(resolved: ResolvedProvider): 'anthropic' | 'responses' | 'google' | undefined {
  if (resolved.preset.protocol === 'anthropic') return 'anthropic';
  if (resolved.preset.protocol === 'google') return 'google';
  return resolved.wire === 'responses' ? 'responses' : undefined;
}

/**
 * A URL the SDK cannot use would otherwise surface as a network error, retried four times: a
 * non-HTTP one, or a port Node's fetch refuses outright.
 */
function checkBaseUrl(url: string, from: { source: BaseUrlSource; variable?: string }): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed?.protocol !== 'http:' && parsed?.protocol !== 'https:') throw new ConfigError(`The base URL must be an http:// or https:// URL, e.g. http://127.0.0.1:11434/v1, got "${url}".`, { kind: 'bad_base_url', ...from, url, blockedPort: false });
  const port = blockedPortOf(parsed);
  if (port !== undefined) throw new ConfigError(`The base URL ${url}: ${blockedPortAdvice(port)}`, { kind: 'bad_base_url', ...from, url, blockedPort: true, port });
}

export async function createProvider(resolved: ResolvedProvider): Promise<Provider> {
  const idle = {
    ...(resolved.idleTimeoutMs !== undefined ? { idleTimeoutMs: resolved.idleTimeoutMs } : {}),
    ...(resolved.firstByteTimeoutMs !== undefined ? { firstByteTimeoutMs: resolved.firstByteTimeoutMs } : {}),
  };
  const variables = keyVariables(resolved.preset);
  const keyVariable = variables ? { keyVariable: variables } : {};
  const search = resolved.webSearch ? { webSearch: resolved.webSearch } : {};
  // Loaded on demand: the SDK is the largest part of start-up.
  if (resolved.preset.protocol === 'anthropic') {
    const { AnthropicProvider } = await import('./anthropic/anthropic-provider.js');
    return new AnthropicProvider({
      name: resolved.preset.name,
      apiKey: resolved.apiKey,
      ...keyVariable,
      baseURL: resolved.baseURL,
      ...(resolved.thinking !== undefined ? { thinkingBudget: resolved.thinking } : {}),
      promptCache: resolved.cacheTtl === 'off' ? false : (resolved.cacheTtl ?? '5m'),
      ...idle,
      ...search,
    });
  }
  if (resolved.preset.protocol === 'google') {
    const { GoogleProvider } = await import('./google/google-provider.js');
    return new GoogleProvider({
      name: resolved.preset.name,
      apiKey: resolved.apiKey,
      ...keyVariable,
      baseURL: resolved.baseURL,
      ...(resolved.thinking !== undefined ? { thinkingBudget: resolved.thinking, includeThoughts: true } : {}),
      ...idle,
      ...search,
    });
  }
  if (resolved.wire === 'responses') {
    const { ResponsesProvider } = await import('./openai-responses/responses-provider.js');
    return new ResponsesProvider({
      name: resolved.preset.name,
      apiKey: resolved.apiKey,
      ...keyVariable,
      baseURL: resolved.baseURL,
      ...idle,
      ...search,
      ...(resolved.preset.promptCacheFields && resolved.cacheTtl !== 'off' ? { promptCache: { key: true, extendedRetention: true } } : {}),
    });
  }
  const { OpenAIProvider } = await import('./openai/openai-provider.js');
  return new OpenAIProvider({
    name: resolved.preset.name,
    apiKey: resolved.apiKey,
    ...keyVariable,
    baseURL: resolved.baseURL,
    replayReasoning: resolved.preset.replayReasoning ?? false,
    ...idle,
    ...(resolved.preset.idFormat ? { idFormat: resolved.preset.idFormat } : {}),
    ...(resolved.preset.promptCacheFields && resolved.cacheTtl !== 'off' ? { promptCache: { key: true, extendedRetention: true } } : {}),
  });
}

/** A model name to show in an example: the preset's own, a local server's usual one, else an OpenAI one. */
function exampleModel(preset: ProviderPreset, baseURL: string): string {
  if (preset.defaultModel && !(preset.defaultModelAtOwnEndpointOnly && baseURL !== preset.baseURL)) return preset.defaultModel;
  return preset.local || baseURL !== preset.baseURL ? 'qwen2.5-coder' : 'gpt-4.1-mini';
}
