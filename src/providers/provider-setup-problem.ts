import type { ProviderPreset } from './presets.js';

/** Where a base URL came from, so a front end can name the setting the user wrote it in. */
export type BaseUrlSource = 'setting' | 'environment' | 'config' | 'preset';

/**
 * Why a provider cannot be resolved, as facts: each front end words them in its own terms (the
 * CLI names its flags and commands, cli/setup/provider-problem-text.ts); the error's message is
 * a plain sentence in the library's terms (`ProviderSettings` fields).
 */
export type ProviderSetupProblem =
  | {
      kind: 'not_set_up';
      preset: ProviderPreset;
      missingKey: boolean;
      missingModel: boolean;
      baseURL: string;
      /** The base URL came from the preset's variable in the environment (a server that may take no key). */
      baseUrlFromEnv: boolean;
      /** A model name to show in an example. */
      exampleModel: string;
    }
  /** `variable`: the environment variable it came from (source `environment`). */
  | { kind: 'bad_base_url'; source: BaseUrlSource; variable?: string; url: string; blockedPort: boolean; port?: number }
  /** A thinking budget for a preset whose models think by themselves. */
  | { kind: 'thinking_unsupported'; preset: string }
  /** An OpenAI wire for a preset that speaks its own API. */
  | { kind: 'wire_unsupported'; preset: string };

/** The key's variables, joined: "OPENAI_API_KEY", "GEMINI_API_KEY or GOOGLE_API_KEY". */
export function keyVariables(preset: ProviderPreset): string {
  return [preset.keyVariable, ...(preset.altKeyVariables ?? [])].filter(Boolean).join(' or ');
}
