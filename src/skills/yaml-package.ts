import type * as Yaml from 'yaml';
import { requireOnFirstUse } from '../contracts/require-on-first-use.js';

/**
 * The yaml package, loaded on first use: front matter is mostly plain `key: value` lines (see
 * plain-yaml.ts), and a run without any should not compile a YAML parser before its first request.
 */
export const yamlPackage = requireOnFirstUse<typeof Yaml>('yaml');
