import { SETTING_KEYS, settingRow, type ConfigType, type SettingKey } from './settings.js';

/** `--model NAME, -m`: a flag as the user types it. */
export function flagWords(option: { flag: string; short?: string; value?: string }): string {
  return `--${option.flag}${option.value ? ` ${option.value}` : ''}${option.short ? `, -${option.short}` : ''}`;
}

/** The default in words, or undefined when there is nothing worth saying (off, empty). */
export function defaultWords(key: SettingKey): string | undefined {
  const row = settingRow(key);
  if (row.defaultText !== undefined) return row.defaultText;
  const value = row.default as unknown;
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** The environment variable(s) for a setting, in words. */
export function envWords(key: SettingKey): string | undefined {
  const row = settingRow(key);
  return row.env ?? row.providerEnv;
}

export function configTypeWords(config: ConfigType): string {
  switch (config.type) {
    case 'string':
      return 'text';
    case 'url':
      return 'URL';
    case 'integer':
      return `whole number ≥ ${config.min}`;
    case 'number':
      if (config.above !== undefined) return `number > ${config.above}`;
      return `number ${config.min ?? '-∞'}–${config.max ?? '∞'}`;
    case 'boolean':
      return 'true or false';
    case 'strings':
      return 'list of text';
    case 'choice':
      return `one of ${config.choices.join(', ')}`;
    case 'lists':
      return 'object: name → list of text';
    case 'object':
      return config.words;
    case 'rules':
      return '{ "allow": [rules], "deny": [rules] }';
    case 'sources':
      return 'list of { "name", "path", "glob" }';
    case 'prices':
      return '{ "model": { "input", "output", "cachedInput", "cacheWrite", "cacheWrite1h" } } (US dollars per million tokens)';
    case 'reviewer':
      return '{ "provider": preset (default the session\'s), "model" }';
    case 'checker':
      return '"auto", "off" or { "command", "format": tsc | lines | eslint-json | ruff-json, "timeout": seconds, "extensions" }';
  }
}

/** Settings that only an environment variable sets, in --help's "Environment" line. */
export function environmentOnlyKeys(): SettingKey[] {
  return SETTING_KEYS.filter((key) => settingRow(key).flag === undefined && settingRow(key).env !== undefined);
}
