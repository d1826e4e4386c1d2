import { join } from 'node:path';
import { packageRoot } from './package-root.js';

/**
 * The built-in suite ships beside dist/ as eval/builtin (task files and their fixtures, which tsc
 * does not copy), at the package's root.
 */
export const BUILTIN_SUITE = join(packageRoot(), 'eval', 'builtin');
