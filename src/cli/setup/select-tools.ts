import type { Tool } from '../../contracts/tool.js';
import type { FetchUrlOptions } from '../../tools/builtin/fetch-url.js';
import type { ShellToolOptions } from '../../tools/coding/shell/bash.js';
import type { FileToolOptions } from '../../tools/coding/shared/file-tool-options.js';
import type { TodoList } from '../../tools/builtin/todo-list.js';
import { builtInValidator } from '../../tools/built-in-validator.js';
import { deferredTool } from '../../tools/deferred-tool.js';
import { DEFAULT_TOOL_NAMES, expandToolGroups, TOOL_GROUPS } from '../settings/tool-names.js';
import { TOOL_SPECS } from '../../tools/tool-specs.js';
import { UsageError } from '../settings/usage-error.js';

export interface ToolSelectionOptions extends FileToolOptions, FetchUrlOptions {
  /** The checklist todo_write and todo_read keep (a fresh one when absent). */
  todos?: TodoList;
}

interface ToolFamily {
  /** The tools `make` returns, in order (test/select-tools.test.ts checks they agree). */
  names: readonly string[];
  make(options: ToolSelectionOptions, shell: ShellToolOptions): Promise<Tool[]>;
}

// A family's module is imported only when one of its tools is first called (or named by a reply):
// the first request offers the tools from their specs (tool-specs.ts), so `--tools calculator`
// loads no tool code and no zod before it (the loop's warm-up loads them while that request is out).
export const TOOL_FAMILIES: readonly ToolFamily[] = [
  { names: ['read_file', 'write_file', 'edit_file'], make: async (options) => (await import('../../tools/coding/file-tools.js')).createFileTools(options) },
  { names: ['list_files', 'grep'], make: async (options) => (await import('../../tools/coding/search-tools.js')).createSearchTools(options) },
  { names: ['bash'], make: async (_options, shell) => [(await import('../../tools/coding/shell/bash.js')).createBashTool(shell)] },
  { names: ['bash_output', 'bash_kill'], make: async (_options, shell) => (await import('../../tools/coding/shell/background-tools.js')).createBackgroundTools(shell.jobs) },
  { names: ['remember'], make: async () => [(await import('../../memory/remember-tool.js')).rememberTool] },
  {
    names: ['todo_write', 'todo_read'],
    make: async (options) => {
      const { createTodoTools, TodoList } = await import('../../tools/builtin/todo.js');
      return createTodoTools(options.todos ?? new TodoList());
    },
  },
  // The course tools share nothing, so each is its own family: calculator's first call loads neither fetch_url nor https and dns.
  { names: ['current_time'], make: async () => [(await import('../../tools/builtin/current-time.js')).currentTimeTool] },
  { names: ['calculator'], make: async () => [(await import('../../tools/builtin/calculator.js')).calculatorTool] },
  { names: ['fetch_url'], make: async (options) => [(await import('../../tools/builtin/fetch-url.js')).createFetchUrlTool(options)] },
];

/** Every tool the CLI knows, freshly made (file tools share per-run state such as what was read). */
export async function availableTools(options: ToolSelectionOptions = {}, shell: ShellToolOptions = {}): Promise<Tool[]> {
  return (await Promise.all(TOOL_FAMILIES.map((family) => family.make(options, shell)))).flat();
}

/**
 * Resolves --tools names and groups to tools; unknown names are a usage error. Each tool is offered
 * from its spec and its family is made at the first call to one of its tools (the tools of a
 * family share state, such as which files were read, so they come from one `make`).
 */
export async function selectTools(names: readonly string[] | undefined, options: ToolSelectionOptions = {}, shell: ShellToolOptions = {}): Promise<Tool[]> {
  const known = TOOL_FAMILIES.flatMap((family) => family.names);
  const wanted = expandToolGroups(names ?? DEFAULT_TOOL_NAMES);
  const unknown = wanted.filter((name) => !known.includes(name));
  if (unknown.length) {
    throw new UsageError(`Unknown tool${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}. Available: ${Object.keys(TOOL_GROUPS).join(', ')}, ${known.join(', ')}.`);
  }
  const made = new Map<ToolFamily, Promise<Tool[]>>();
  const make = (family: ToolFamily) => made.get(family) ?? made.set(family, family.make(options, shell)).get(family)!;
  return [...new Set(wanted)].map((name) => {
    const family = TOOL_FAMILIES.find((candidate) => candidate.names.includes(name))!;
    return deferredTool(TOOL_SPECS[name]!, async () => (await make(family)).find((tool) => tool.name === name)!, { specFromBuild: true, validator: builtInValidator(name) });
  });
}
