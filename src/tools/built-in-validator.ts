import type { CompiledValidator } from './compiled-validator.js';

/** A built-in tool's check compiled at build time, loaded with the tool's code (deferredTool's `validator`). */
export function builtInValidator(name: string): () => Promise<CompiledValidator | undefined> {
  return async () => (await import('./tool-validators.js')).TOOL_VALIDATORS[name];
}
