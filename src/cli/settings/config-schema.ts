import { z } from 'zod';
import { CONFIG_KEYS, settingRow, type ConfigType } from './settings.js';

function validator(config: ConfigType): z.ZodType {
  switch (config.type) {
    case 'string':
      return z.string();
    case 'url':
      return z.string().url();
    case 'integer':
      return z.number().int().min(config.min);
    case 'number': {
      let number = z.number();
      if (config.min !== undefined) number = number.min(config.min);
      if (config.max !== undefined) number = number.max(config.max);
      return config.above !== undefined ? number.gt(config.above) : number;
    }
    case 'boolean':
      return z.boolean();
    case 'strings':
      return z.array(z.string());
    case 'choice':
      return z.enum(config.choices as [string, ...string[]]);
    case 'rules':
      return z.object({ allow: z.array(z.string()).default([]), deny: z.array(z.string()).default([]) }).strict();
    case 'sources':
      return z.array(z.object({ name: z.string().min(1), path: z.string().min(1), glob: z.string().min(1).optional() }).strict());
    case 'lists':
      return z.record(z.string(), z.array(z.string()));
    case 'object':
      return z.record(z.string(), z.unknown());
    case 'prices': {
      const perMillion = z.number().min(0);
      return z.record(z.string().min(1), z.object({ input: perMillion, output: perMillion, cachedInput: perMillion.optional(), cacheWrite: perMillion.optional(), cacheWrite1h: perMillion.optional() }).strict());
    }
    case 'reviewer':
      return z.object({ provider: z.string().min(1).optional(), model: z.string().min(1) }).strict();
    case 'checker':
      return z.union([
        z.enum(['auto', 'off']),
        z.object({ command: z.string().min(1), format: z.enum(['tsc', 'lines', 'eslint-json', 'ruff-json']).optional(), timeout: z.number().positive().optional(), extensions: z.array(z.string()).optional() }).strict(),
      ]);
  }
}

let schema: z.ZodObject | undefined;

/** A config file: the settings table's config keys and types, nothing else. Built when a file is first read, not at start-up. */
export function configSchema(): z.ZodObject {
  schema ??= z.object(Object.fromEntries(CONFIG_KEYS.map((key) => [key, validator(settingRow(key).config!)]))).partial().strict();
  return schema;
}
