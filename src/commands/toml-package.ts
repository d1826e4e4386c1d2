import { createRequire } from 'node:module';
import type * as Toml from 'smol-toml';

let loaded: typeof Toml | undefined;

/** The smol-toml package, loaded on first use: only a custom command written in TOML needs it, and a run without one should not compile it. */
export function tomlPackage(): typeof Toml {
  loaded ??= createRequire(import.meta.url)('smol-toml') as typeof Toml;
  return loaded;
}
