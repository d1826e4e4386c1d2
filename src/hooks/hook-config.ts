import { z } from 'zod';

export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'Stop'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

const makeGroup = () => z.object({ matcher: z.string().optional(), hooks: z.array(z.object({ type: z.literal('command'), command: z.string().min(1), timeout: z.number().positive().optional() })) });
const makeHooksSchema = () => z.record(z.string(), z.array(makeGroup()));
let schema: ReturnType<typeof makeHooksSchema> | undefined;

/** Claude Code's `hooks` setting: per event, groups of commands, each group with an optional tool-name matcher. Built at first use (start-up cost). */
export function hooksSchema(): ReturnType<typeof makeHooksSchema> {
  schema ??= makeHooksSchema();
  return schema;
}
/** `dialect`: a Gemini CLI group gets Gemini's event and tool names on stdin and in its matcher. */
export type HookGroup = z.infer<ReturnType<typeof makeGroup>> & { dialect?: 'gemini-cli' };
export type HooksConfig = Partial<Record<HookEvent, HookGroup[]>>;

/** The hooks we run, and warnings for what we do not (unknown events, malformed groups). */
export function parseHooks(raw: unknown, file: string): { hooks: HooksConfig; warnings: string[] } {
  const parsed = hooksSchema().safeParse(raw ?? {});
  if (!parsed.success) return { hooks: {}, warnings: [`hooks in ${file} ignored: expected { "<Event>": [{ "matcher": "…", "hooks": [{ "type": "command", "command": "…" }] }] }.`] };
  const hooks: HooksConfig = {};
  const warnings: string[] = [];
  for (const [event, groups] of Object.entries(parsed.data)) {
    if ((HOOK_EVENTS as readonly string[]).includes(event)) hooks[event as HookEvent] = groups;
    else warnings.push(`hooks in ${file}: ${event} is not run by vibe-agent (it runs ${HOOK_EVENTS.join(', ')}).`);
  }
  return { hooks, warnings };
}

/** Gemini CLI's names for our tools, for its hooks' matchers and stdin. */
export const GEMINI_TOOL_NAMES: Record<string, string> = {
  bash: 'run_shell_command',
  edit_file: 'replace',
  write_file: 'write_file',
  read_file: 'read_file',
  grep: 'search_file_content',
  list_files: 'glob',
  fetch_url: 'web_fetch',
};

/** Gemini CLI's names for the events we run its hooks at. */
export const GEMINI_EVENT_NAMES: Record<HookEvent, string> = {
  SessionStart: 'SessionStart',
  UserPromptSubmit: 'BeforeAgent',
  PreToolUse: 'BeforeTool',
  PostToolUse: 'AfterTool',
  Stop: 'AfterAgent',
};

/** Claude Code's names for our tools, so hooks written for it match ours unchanged. */
export const CLAUDE_TOOL_NAMES: Record<string, string> = {
  bash: 'Bash',
  edit_file: 'Edit',
  write_file: 'Write',
  read_file: 'Read',
  grep: 'Grep',
  list_files: 'Glob',
  fetch_url: 'WebFetch',
};
