/** The files of src/tools/validators/ by name (shared by `npm run tool-specs` and its staleness test). */
export function toolValidatorFiles(specs: Readonly<Record<string, { parameters: Record<string, unknown> }>>): Record<string, string>;
