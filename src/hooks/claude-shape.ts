import { PeerShape } from './peer-shape.js';

/**
 * Claude Code's names for our tools and their arguments, so a hook written for Claude Code reads
 * `tool_input.file_path` / `.command` and matches `Edit|Write|Bash` unchanged. Tools it has no
 * equal of keep our names, as MCP tools do (already `mcp__server__tool`).
 */
export const CLAUDE_SHAPE = new PeerShape({
  bash: { name: 'Bash', fields: { timeout_ms: 'timeout' } },
  bash_output: { name: 'BashOutput', fields: { id: 'bash_id' } },
  bash_kill: { name: 'KillShell', fields: { id: 'shell_id' } },
  read_file: { name: 'Read', fields: { path: 'file_path' }, absolute: ['path'] },
  write_file: { name: 'Write', fields: { path: 'file_path' }, absolute: ['path'] },
  edit_file: { name: 'Edit', fields: { path: 'file_path' }, absolute: ['path'] },
  list_files: { name: 'Glob' },
  grep: { name: 'Grep', fields: { ignore_case: '-i', context: '-C', max_results: 'head_limit' } },
  fetch_url: { name: 'WebFetch' },
  web_search: { name: 'WebSearch' },
  task: { name: 'Task', fields: { agent: 'subagent_type' } },
  todo_write: { name: 'TodoWrite' },
  skill: { name: 'Skill', fields: { name: 'skill' } },
}, ['remember', 'read_output', 'todo_read', 'current_time', 'calculator', 'code_nav']);

/** Our permission modes as Claude Code's `permission_mode`. */
export const CLAUDE_PERMISSION_MODES: Record<string, string> = { ask: 'default', 'auto-edit': 'acceptEdits', yolo: 'bypassPermissions', plan: 'plan' };
