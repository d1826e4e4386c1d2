import type { HookEvent } from './hook-config.js';
import { PeerShape } from './peer-shape.js';

/** Gemini CLI's names for our tools and their arguments, for its hooks' matchers and stdin. */
export const GEMINI_SHAPE = new PeerShape({
  bash: { name: 'run_shell_command' },
  edit_file: { name: 'replace', fields: { path: 'file_path' }, absolute: ['path'] },
  write_file: { name: 'write_file', fields: { path: 'file_path' }, absolute: ['path'] },
  read_file: { name: 'read_file', fields: { path: 'file_path' }, absolute: ['path'] },
  grep: { name: 'search_file_content', fields: { glob: 'include' } },
  list_files: { name: 'glob' },
  fetch_url: { name: 'web_fetch' },
  web_search: { name: 'google_web_search' },
  todo_write: { name: 'write_todos' },
  remember: { name: 'save_memory' },
}, ['bash_output', 'bash_kill', 'read_output', 'todo_read', 'current_time', 'calculator', 'task', 'skill', 'code_nav']);

/** Gemini CLI's names for the events we run its hooks at. */
export const GEMINI_EVENT_NAMES: Record<HookEvent, string> = {
  SessionStart: 'SessionStart',
  UserPromptSubmit: 'BeforeAgent',
  PreToolUse: 'BeforeTool',
  PostToolUse: 'AfterTool',
  // Gemini CLI's AfterTool follows every call, failed or not.
  PostToolUseFailure: 'AfterTool',
  Stop: 'AfterAgent',
  SessionEnd: 'SessionEnd',
  Notification: 'Notification',
  // Gemini CLI has no such event: none of its groups is run at it.
  PermissionRequest: 'PermissionRequest',
  PreCompact: 'PreCompress',
  SubagentStop: 'SubagentStop',
};
