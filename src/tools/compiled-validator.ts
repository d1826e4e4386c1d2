/**
 * A tool's argument check compiled at build time (src/tools/tool-validators.ts): true when the
 * arguments are valid, having removed unknown keys and filled defaults in place, as the tool's
 * zod schema would give them. It says nothing of why: on false, the zod schema tells the model.
 */
export type CompiledValidator = (data: unknown) => boolean;

/** A built-in tool's compiled check, loaded with the tool's code (deferredTool's `validator`). */
export function builtInValidator(name: string): () => Promise<CompiledValidator | undefined> {
  return async () => (await import('./tool-validators.js')).TOOL_VALIDATORS[name];
}
