import type { CompiledValidator } from './compiled-validator.js';
import { VALIDATORS } from './validators/index.js';

/**
 * A built-in tool's check compiled at build time (src/tools/validators/<tool>.ts, one file a tool:
 * a call loads its own alone), loaded with the tool's code (deferredTool's `validator`).
 */
export function builtInValidator(name: string): () => Promise<CompiledValidator | undefined> {
  return async () => (await VALIDATORS[name]?.())?.validate;
}
