import type { Tool } from '../contracts/tool.js';
import { createCourseTools } from '../tools/builtin/course.js';
import type { FetchUrlOptions } from '../tools/builtin/fetch-url.js';
import { createBashTool } from '../tools/coding/shell/bash.js';
import { createBackgroundTools } from '../tools/coding/shell/background-tools.js';
import type { ShellToolOptions } from '../tools/coding/shell/bash.js';
import { createFileTools } from '../tools/coding/file-tools.js';
import { createSearchTools } from '../tools/coding/search-tools.js';
import type { FileToolOptions } from '../tools/coding/shared/file-tool-options.js';
import { rememberTool } from '../memory/remember-tool.js';
import { createTodoTools, TodoList } from '../tools/builtin/todo.js';
import { DEFAULT_TOOL_NAMES, expandToolGroups, TOOL_GROUPS } from './tool-names.js';
import { UsageError } from './usage-error.js';

export interface ToolSelectionOptions extends FileToolOptions, FetchUrlOptions {
  /** The checklist todo_write and todo_read keep (a fresh one when absent). */
  todos?: TodoList;
}

/** Every tool the CLI knows, freshly made (file tools share per-run state such as what was read). */
export function availableTools(options: ToolSelectionOptions = {}, shell: ShellToolOptions = {}): Tool[] {
  return [...createFileTools(options), ...createSearchTools(options), createBashTool(shell), ...createBackgroundTools(shell.jobs), rememberTool, ...createTodoTools(options.todos ?? new TodoList()), ...createCourseTools(options)];
}

/** Resolves --tools names and groups to tools; unknown names are a usage error. */
export function selectTools(names: readonly string[] | undefined, options: ToolSelectionOptions = {}, shell: ShellToolOptions = {}): Tool[] {
  const all = new Map(availableTools(options, shell).map((tool) => [tool.name, tool]));
  const wanted = expandToolGroups(names ?? DEFAULT_TOOL_NAMES);
  const unknown = wanted.filter((name) => !all.has(name));
  if (unknown.length) {
    throw new UsageError(`Unknown tool${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Available: ${Object.keys(TOOL_GROUPS).join(', ')}, ${[...all.keys()].join(', ')}.`);
  }
  return [...new Set(wanted)].map((name) => all.get(name)!);
}
