import type { ToolCategory, ToolPermission } from '../../../contracts/tool.js';

/** File tools: rules match the path (`edit(src/**)`), by the tool's name or the aliases given. */
export function filePermission(category: ToolCategory, aliases: readonly string[]): ToolPermission<{ path: string }> {
  return { category, aliases, subject: ({ path }) => ({ kind: 'file-path', value: path }) };
}
