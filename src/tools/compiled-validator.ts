/**
 * A tool's argument check compiled at build time (src/tools/validators/): true when the
 * arguments are valid, having removed unknown keys and filled defaults in place, as the tool's
 * zod schema would give them. It says nothing of why: on false, the zod schema tells the model.
 */
export type CompiledValidator = (data: unknown) => boolean;
