import type { Tool } from '../contracts/tool.js';
import type { AgentDefinition } from './agent-definition.js';

/** Claude Code's tool names, so its agent files work here unchanged. */
const CLAUDE_NAMES: Record<string, string> = {
  Read: 'read_file',
  Write: 'write_file',
  Edit: 'edit_file',
  MultiEdit: 'edit_file',
  Glob: 'list_files',
  LS: 'list_files',
  Grep: 'grep',
  Bash: 'bash',
  WebFetch: 'fetch_url',
};

/**
 * The tools a child gets: the parent's, narrowed to the definition's list (names the parent lacks
 * are left out: a child never gets more than its parent) and, for a read-only agent, to tools that
 * only read. The `task` tool is never inherited: a child gets its own, bound to it, when the depth allows.
 */
export function childTools(parentTools: readonly Tool[], definition: AgentDefinition): Tool[] {
  const wanted = definition.tools ? new Set(definition.tools.map((name) => CLAUDE_NAMES[name] ?? name)) : undefined;
  return parentTools.filter((tool) => tool.name !== 'task' && (!wanted || wanted.has(tool.name)) && (!definition.readOnly || tool.readOnly));
}
