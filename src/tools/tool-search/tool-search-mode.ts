/**
 * When MCP tools are deferred (`toolSearch` in the config): `auto` once their schemas would take
 * more than 10% of the context window, `auto:N` past N%, `always`, `never`.
 */
export type ToolSearchMode = { kind: 'auto'; percent: number } | { kind: 'always' } | { kind: 'never' };

export const DEFAULT_TOOL_SEARCH_PERCENT = 10;

/** Reads the setting's text; a string says what is wrong with it. */
export function parseToolSearchMode(text: string): ToolSearchMode | string {
  const value = text.trim().toLowerCase();
  if (value === 'always' || value === 'true') return { kind: 'always' };
  if (value === 'never' || value === 'false' || value === 'off') return { kind: 'never' };
  if (value === 'auto') return { kind: 'auto', percent: DEFAULT_TOOL_SEARCH_PERCENT };
  const match = /^auto:(\d+(?:\.\d+)?)%?$/.exec(value);
  if (match) {
    const percent = Number(match[1]);
    if (percent > 0 && percent <= 100) return { kind: 'auto', percent };
  }
  return `expected auto, auto:N (N a percentage of the context window, 1–100), always or never; got "${text}"`;
}

export function toolSearchModeText(mode: ToolSearchMode): string {
  return mode.kind === 'auto' ? (mode.percent === DEFAULT_TOOL_SEARCH_PERCENT ? 'auto' : `auto:${mode.percent}`) : mode.kind;
}
