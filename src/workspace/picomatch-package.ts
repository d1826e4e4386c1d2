import { createRequire } from 'node:module';
import type Picomatch from 'picomatch';

let loaded: typeof Picomatch | undefined;

/**
 * The picomatch package, loaded on first use: a run matches globs only once a permission rule or
 * a skill's allowed-tools pattern meets a path, and one without should not compile ~60 KB of
 * glob compiler before its first request. (Required, not imported: its callers are synchronous.)
 */
export function picomatchPackage(): typeof Picomatch {
  loaded ??= createRequire(import.meta.url)('picomatch') as typeof Picomatch;
  return loaded;
}
