import type * as Toml from 'smol-toml';
import { requireOnFirstUse } from '../contracts/require-on-first-use.js';

/** The smol-toml package, loaded on first use: only a custom command written in TOML needs it. */
export const tomlPackage = requireOnFirstUse<typeof Toml>('smol-toml');
