import { PRESET_ALIASES } from '../../providers/presets.js';
import type { CliArgs } from '../args/cli-args.js';
import { providerFromKeys } from './provider-from-keys.js';
import { SETTING_KEYS, settingRow, type FileConfig, type SettingKey, type Settings } from '../settings/settings.js';

export type SettingSource = 'flag' | 'environment' | 'config' | 'default';

export interface ResolvedSettings {
  values: Settings;
  /** Where each value came from, for messages that name it ("--base-url", "the config file"). */
  sources: Record<SettingKey, SettingSource>;
}

/**
 * Applies the settings table: a flag beats the environment variable, which beats the config
 * files (already merged, project over user, by loadConfig), which beat the default. A repeatable
 * setting adds the flags to the config's list instead. A config file's model and base URL go
 * with its provider: another provider chosen by flag or environment keeps its own defaults.
 */
export function resolveSettings(args: CliArgs, env: Record<string, string | undefined>, config: FileConfig): ResolvedSettings {
  const values: Record<string, unknown> = {};
  const sources = {} as Record<SettingKey, SettingSource>;
  const flags = args as Partial<Record<SettingKey, unknown>>;
  const fileConfig = config as Partial<Record<SettingKey, unknown>>;
  for (const key of SETTING_KEYS) {
    const row = settingRow(key);
    const fromFlag = flags[key] === false || (Array.isArray(flags[key]) && flags[key].length === 0) ? undefined : flags[key];
    const raw = row.env ? env[row.env] : undefined;
    // An empty variable is taken as unset, as for the key variables.
    const fromEnv = raw !== undefined && raw !== '' && row.parse ? (row.parse as (text: string, name: string) => unknown)(raw, row.env!) : undefined;
    const fromConfig = row.config && (!row.followsProvider || sameProvider(config.provider, values.provider as string)) ? fileConfig[key] : undefined;
    if (row.repeatable) {
      values[key] = [...((fromConfig as unknown[] | undefined) ?? []), ...((fromFlag as unknown[] | undefined) ?? [])];
      sources[key] = fromFlag !== undefined ? 'flag' : fromConfig !== undefined ? 'config' : 'default';
      continue;
    }
    const [value, source] = fromFlag !== undefined ? [fromFlag, 'flag' as const] : fromEnv !== undefined ? [fromEnv, 'environment' as const] : fromConfig !== undefined ? [fromConfig, 'config' as const] : [row.default, 'default' as const];
    values[key] = key === 'provider' && source === 'default' ? providerFromKeys(env, value as string) : value;
    sources[key] = source;
  }
  return { values: values as unknown as Settings, sources };
}

/** True when the config file names no provider, or the one in force (aliases count). */
function sameProvider(configProvider: string | undefined, provider: string): boolean {
  return configProvider === undefined || presetName(configProvider) === presetName(provider);
}

function presetName(name: string): string {
  return PRESET_ALIASES[name] ?? name;
}
