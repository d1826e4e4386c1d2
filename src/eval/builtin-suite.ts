import { fileURLToPath } from 'node:url';

/**
 * The built-in suite ships beside dist/ as eval/builtin (task files and their fixtures, which tsc
 * does not copy); from dist/eval/ and src/eval/ alike it is two folders up.
 */
export const BUILTIN_SUITE = fileURLToPath(new URL('../../eval/builtin', import.meta.url));
