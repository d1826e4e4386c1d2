import type Picomatch from 'picomatch';
import { requireOnFirstUse } from '../contracts/require-on-first-use.js';

/**
 * The picomatch package, loaded on first use: a run matches globs only once a permission rule or
 * a skill's allowed-tools pattern meets a path, and one without should not compile ~60 KB of
 * glob compiler before its first request. (Required, not imported: its callers are synchronous.)
 */
export const picomatchPackage = requireOnFirstUse<typeof Picomatch>('picomatch');
