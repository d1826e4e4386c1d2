import { createRequire } from 'node:module';

/**
 * A package for synchronous callers, required at the first call and kept: a run that never needs it
 * never compiles it (the yaml parser, the glob compiler, the TOML parser). Resolved from this
 * file, so from the bundle's chunks as from tsc's output.
 */
export function requireOnFirstUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= createRequire(import.meta.url)(specifier) as T);
}
