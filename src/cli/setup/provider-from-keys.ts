import { PRESETS } from '../../providers/presets.js';

/**
 * The provider when none is chosen (no flag, VIBE_PROVIDER or config file): openai, as ever, when
 * its key or base URL is set or no key is; otherwise the first hosted provider, in the presets'
 * order, whose key variable is set. An editor's settings that give only ANTHROPIC_API_KEY then run
 * Anthropic's default model instead of asking for an OpenAI key.
 */
export function providerFromKeys(env: Record<string, string | undefined>, fallback: string): string {
  const openai = PRESETS.openai!;
  if (env[openai.keyVariable!] || env[openai.baseUrlVariable!]) return fallback;
  const keyed = Object.values(PRESETS).find((preset) => [preset.keyVariable, ...(preset.altKeyVariables ?? [])].some((variable) => variable && env[variable]));
  return keyed?.name ?? fallback;
}
