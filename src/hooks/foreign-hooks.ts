import { readOwnText, RefusedFileError, type ReadRule } from '../workspace/read-own-file.js';
import { parseJsonText } from '../contracts/config-text.js';
import { parseTomlText } from '../contracts/toml-text.js';
import { foreignHookFiles, type HookDirs } from './foreign-hook-files.js';
import { parseHooks, type HookEvent, type HookGroup, type HooksConfig } from './hook-config.js';

/** Gemini CLI's events, as the Claude Code events we run them at; its others are reported and ignored. */
const GEMINI_EVENTS: Record<string, HookEvent> = {
  SessionStart: 'SessionStart',
  BeforeAgent: 'UserPromptSubmit',
  BeforeTool: 'PreToolUse',
  AfterTool: 'PostToolUse',
  AfterAgent: 'Stop',
  SessionEnd: 'SessionEnd',
  Notification: 'Notification',
  PreCompress: 'PreCompact',
};

export interface HookSource {
  file: string;
  format: 'vibe-agent' | 'claude-code' | 'gemini-cli' | 'codex';
  hooks: HooksConfig;
}

/**
 * Gemini CLI's `hooks` in settings.json, unchanged: `{ "BeforeTool": [{ "matcher", "hooks":
 * [{ "type": "command", "command", "timeout" (ms) }] }] }`, with its non-event keys (`enabled`,
 * `disabled`, …) left alone. The groups are marked so their hooks get Gemini's event and tool names.
 */
export function parseGeminiHooks(raw: unknown, file: string): { hooks: HooksConfig; warnings: string[] } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { hooks: {}, warnings: [] };
  const claudeShaped: Record<string, unknown> = {};
  const warnings: string[] = [];
  for (const [event, groups] of Object.entries(raw as Record<string, unknown>)) {
    if (!Array.isArray(groups)) continue;
    const ours = GEMINI_EVENTS[event];
    if (!ours) {
      warnings.push(`hooks in ${file}: Gemini CLI's ${event} is not run by vibe-agent (it runs ${Object.keys(GEMINI_EVENTS).join(', ')}).`);
      continue;
    }
    const shaped = groups.map((group: { hooks?: Array<{ timeout?: unknown }> }) => ({
      ...group,
      hooks: (group.hooks ?? []).map((hook) => ({ ...hook, ...(typeof hook.timeout === 'number' ? { timeout: hook.timeout / 1000 } : {}) })),
    }));
    claudeShaped[ours] = shaped;
    // AfterTool follows failed calls too, which we run as PostToolUseFailure.
    if (ours === 'PostToolUse') claudeShaped.PostToolUseFailure = shaped;
  }
  const parsed = parseHooks(claudeShaped, file);
  for (const groups of Object.values(parsed.hooks)) for (const group of groups) (group as HookGroup).dialect = 'gemini-cli';
  return { hooks: parsed.hooks, warnings: [...warnings, ...parsed.warnings] };
}

/**
 * The hooks of Claude Code's, Gemini CLI's and Codex's files in one directory level (the home or the
 * workspace): `.claude/settings.json` (and the project's `settings.local.json`) `hooks`,
 * `.gemini/settings.json` `hooks`, Codex's `hooks.json` and `[hooks]` tables of `config.toml`
 * (Claude Code's shape, so read as ours). A file that is absent gives nothing.
 */
export function foreignHookSources(dirs: HookDirs, level: 'user' | 'project', within: ReadRule['within'], warn: (message: string) => void): HookSource[] {
  const sources: HookSource[] = [];
  const add = (file: string, format: HookSource['format'], read: (text: string) => unknown, parse: typeof parseHooks) => {
    const text = readOptional(file, within, warn);
    if (text === undefined) return;
    let raw: unknown;
    try {
      raw = read(text);
    } catch (error) {
      warn(`${file} could not be parsed (${(error as Error).message}); its hooks are skipped.`);
      return;
    }
    if (raw === undefined) return;
    const parsed = parse(raw, file);
    for (const warning of parsed.warnings) warn(warning);
    if (Object.keys(parsed.hooks).length) sources.push({ file, format, hooks: parsed.hooks });
  };
  const hooksOf = (value: unknown) => (value && typeof value === 'object' ? (value as { hooks?: unknown }).hooks : undefined);
  const files = foreignHookFiles(dirs, level);
  add(files.claude, 'claude-code', (text) => hooksOf(parseJsonText(text)), parseHooks);
  if (files.claudeLocal) add(files.claudeLocal, 'claude-code', (text) => hooksOf(parseJsonText(text)), parseHooks);
  add(files.gemini, 'gemini-cli', (text) => hooksOf(parseJsonText(text)), parseGeminiHooks);
  add(files.codexJson, 'codex', (text) => hooksOf(parseJsonText(text)), parseHooks);
  // [hooks.state] is Codex's own bookkeeping, not an event.
  add(files.codexToml, 'codex', (text) => withoutState(hooksOf(parseTomlText(text))), parseHooks);
  return sources;
}

function withoutState(hooks: unknown): unknown {
  if (!hooks || typeof hooks !== 'object') return undefined;
  const { state: _, ...events } = hooks as Record<string, unknown>;
  return Object.keys(events).length ? events : undefined;
}

/** Far above any real settings file. */
const MAX_HOOK_FILE_BYTES = 1024 * 1024;

function readOptional(path: string, within: ReadRule['within'], warn: (message: string) => void): string | undefined {
  try {
    return readOwnText(path, { within, maxBytes: MAX_HOOK_FILE_BYTES });
  } catch (error) {
    if (!(error instanceof RefusedFileError) || error.code !== 'ENOENT') warn(`${(error as Error).message.replace(/\.$/, '')}, so its hooks are skipped.`);
    return undefined;
  }
}
