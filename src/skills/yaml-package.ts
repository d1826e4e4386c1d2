import { createRequire } from 'node:module';
import type * as Yaml from 'yaml';

let loaded: typeof Yaml | undefined;

/**
 * The yaml package, loaded on first use: front matter is mostly plain `key: value` lines (see
 * plain-yaml.ts), and a run without any should not compile a YAML parser before its first request.
 */
export function yamlPackage(): typeof Yaml {
  loaded ??= createRequire(import.meta.url)('yaml') as typeof Yaml;
  return loaded;
}
