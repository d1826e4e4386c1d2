/**
 * Tool names for --tools, kept free of the tools themselves so that --help and config checks load
 * nothing else (select-tools checks every name against the real tools).
 */
export const TOOL_GROUPS: Record<string, string[]> = {
  coding: ['read_file', 'write_file', 'edit_file', 'list_files', 'grep', 'bash', 'bash_output', 'bash_kill'],
  course: ['current_time', 'calculator', 'fetch_url'],
  /** Subagents (the task tool) and the model's checklist. */
  agents: ['task', 'todo_write', 'todo_read'],
};

/** The set when --tools is not given: the coding tools, fetch_url and remember. */
export const DEFAULT_TOOL_NAMES: readonly string[] = [...TOOL_GROUPS.coding!, 'fetch_url', 'remember'];

/** Group names replaced by their members. */
export function expandToolGroups(names: readonly string[]): string[] {
  return names.flatMap((name) => TOOL_GROUPS[name] ?? [name]);
}
