import type { Tool } from '../contracts/tool.js';
import { courseTools } from '../tools/builtin/course.js';
import { fetchUrlTool } from '../tools/builtin/fetch-url.js';
import { bashTool } from '../tools/coding/shell/bash.js';
import { createFileTools } from '../tools/coding/file-tools.js';
import { createSearchTools } from '../tools/coding/search-tools.js';
import type { FileToolOptions } from '../tools/coding/shared/file-tool-options.js';
import { rememberTool } from '../memory/remember-tool.js';
import { UsageError } from './args.js';

/** Every tool the CLI knows, freshly made (file tools share per-run state such as what was read). */
export function availableTools(options: FileToolOptions = {}): Tool[] {
  return [...createFileTools(options), ...createSearchTools(options), bashTool, rememberTool, ...courseTools];
}

/** Names that stand for several tools in --tools. */
export const TOOL_GROUPS: Record<string, string[]> = {
  coding: ['read_file', 'write_file', 'edit_file', 'list_files', 'grep', 'bash'],
  course: courseTools.map((tool) => tool.name),
};

/** The default set when --tools is not given: the coding tools, fetch_url and remember. */
export function defaultToolNames(): string[] {
  return [...TOOL_GROUPS.coding!, fetchUrlTool.name, rememberTool.name];
}

/** Resolves --tools names and groups to tools; unknown names are a usage error. */
export function selectTools(names: string[] | undefined, options: FileToolOptions = {}): Tool[] {
  const all = new Map(availableTools(options).map((tool) => [tool.name, tool]));
  const wanted = (names ?? defaultToolNames()).flatMap((name) => TOOL_GROUPS[name] ?? [name]);
  const unknown = wanted.filter((name) => !all.has(name));
  if (unknown.length) {
    throw new UsageError(`Unknown tool${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Available: ${Object.keys(TOOL_GROUPS).join(', ')}, ${[...all.keys()].join(', ')}.`);
  }
  return [...new Set(wanted)].map((name) => all.get(name)!);
}
