/** The text of src/tools/tool-validators.ts for the tools' specs (shared by `npm run tool-specs` and its staleness test). */
export function toolValidatorsText(specs: Readonly<Record<string, { parameters: Record<string, unknown> }>>): string;
