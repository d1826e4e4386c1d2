import { PRESETS } from '../providers/presets.js';
import type { DoctorEndpoint, ProbeResult, Recommendation } from './types.js';

/** The smallest window a run accepts (`contextWindow` is at least 1024). */
const MIN_WINDOW = 1024;
/** Local servers' usual ports, for a base URL given with the generic openai preset. */
const LOCAL_PORTS: Record<string, string> = { '11434': 'ollama', '8000': 'vllm', '1234': 'lmstudio' };

/** What to run with, from what the probes found. */
export function recommend(endpoint: DoctorEndpoint, probes: ProbeResult[]): Recommendation {
  const byId = (id: string) => probes.find((probe) => probe.id === id);
  const notes: string[] = [];
  if (byId('reach')?.status === 'fail') notes.push('The endpoint did not answer the first request: fix that first (the base URL, the key, the model name); nothing else was probed.');
  const adapter = byId('adapter');
  const native = adapter === undefined || adapter.status === 'pass' || adapter.status === 'warn';
  if (!native) notes.push('Tool calls do not come back natively: run with --protocol prompt-json (tools described in the prompt).');
  if (byId('leaked')?.status === 'warn') notes.push('The server leaves tool calls in the text; the adapter recovers them, but enabling its tool parser (vLLM --tool-call-parser, a matching Ollama template) is more reliable.');
  if (byId('arguments')?.data?.withoutIndex) notes.push('Streamed tool-call fragments come without an index; the adapter copes, other clients may not.');
  const rejected = (byId('parameters')?.data?.rejected as string[] | undefined) ?? [];
  if (rejected.length) notes.push(`The server refuses ${rejected.join(', ')}: the first request of each run fails once and is sent again without it.`);
  const toolSearch = byId('tool-search');
  if (toolSearch?.data?.native === false) notes.push('The endpoint refuses deferred tools (defer_loading, tool_reference), as proxies often do: MCP tool search uses its bridge (tool_search and call_tool), which works on any endpoint.');
  if (toolSearch?.data?.native === true && !isAnthropicsOwn(endpoint.baseURL)) notes.push("The endpoint accepts deferred tools; runs load them natively only at Anthropic's own URL and use the bridge (tool_search and call_tool) here, which costs about the same.");
  if (byId('parallel')?.status === 'warn') notes.push('The model makes one call per reply: expect more turns (raise maxTurns for long tasks).');

  let preset = presetFor(endpoint);
  if (byId('reasoning')?.data?.demandsBack && !PRESETS[preset]?.replayReasoning) {
    preset = replayingPreset(endpoint.model);
    notes.push(`The server demands its reasoning back with tool results: provider ${preset} (with this base URL) sends it back; ${preset === 'deepseek' ? 'moonshot and zhipu do too' : 'so do deepseek and the other replaying presets'}.`);
  }
  const presetRow = PRESETS[preset];
  const contextWindow = windowFrom(byId('context'), notes);
  const config: Record<string, unknown> = { provider: preset, model: endpoint.model };
  if (endpoint.baseURL !== presetRow?.baseURL) config.baseUrl = endpoint.baseURL;
  if (contextWindow !== undefined) config.contextWindow = contextWindow;
  return { protocol: native ? 'native' : 'prompt-json', preset, ...(contextWindow !== undefined ? { contextWindow } : {}), config, notes };
}

function isAnthropicsOwn(baseURL: string): boolean {
  try {
    return new URL(baseURL).hostname === 'api.anthropic.com';
  } catch {
    return false;
  }
}

/** A preset that sends reasoning back with tool results, the model's own family when its name says it. */
function replayingPreset(model: string): string {
  if (/kimi|moonshot/i.test(model)) return 'moonshot';
  if (/glm|zhipu/i.test(model)) return 'zhipu';
  return 'deepseek';
}

function presetFor(endpoint: DoctorEndpoint): string {
  if (endpoint.provider !== 'openai') return endpoint.provider;
  try {
    const url = new URL(endpoint.baseURL);
    const loopback = url.hostname === 'localhost' || url.hostname.startsWith('127.') || url.hostname === '[::1]';
    return (loopback && LOCAL_PORTS[url.port]) || endpoint.provider;
  } catch {
    return endpoint.provider;
  }
}

function windowFrom(context: ProbeResult | undefined, notes: string[]): number | undefined {
  if (!context?.data) return undefined;
  const { claimed, keptTokens, lostTokens } = context.data as { claimed: number | null; keptTokens: number | null; lostTokens: number | null };
  if (lostTokens === null) return claimed ?? undefined;
  if (keptTokens === null || keptTokens < MIN_WINDOW) {
    notes.push(`The server cuts prompts below ${lostTokens} tokens: raise its context length (Ollama: num_ctx / OLLAMA_CONTEXT_LENGTH; llama.cpp: -c; vLLM: --max-model-len).`);
    return MIN_WINDOW;
  }
  notes.push(`The server keeps ≈${keptTokens} tokens of prompt, not more: contextWindow ${keptTokens} makes compaction start in time (or raise the server's context length).`);
  return keptTokens;
}
