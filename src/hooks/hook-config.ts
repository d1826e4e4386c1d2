import { z } from 'zod';

export const HOOK_EVENTS = ['SessionStart', 'UserPromptSubmit', 'PreToolUse', 'PostToolUse', 'PostToolUseFailure', 'PermissionRequest', 'Notification', 'PreCompact', 'Stop', 'SubagentStop', 'SessionEnd'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

const makeGroup = () => z.object({ matcher: z.string().optional(), hooks: z.array(z.object({ type: z.literal('command'), command: z.string().min(1), timeout: z.number().positive().optional() })) });
const makeHooksSchema = () => z.record(z.string(), z.array(makeGroup()));
let schema: ReturnType<typeof makeHooksSchema> | undefined;

/** Claude Code's `hooks` setting: per event, groups of commands, each group with an optional tool-name matcher. Built at first use (start-up cost). */
export function hooksSchema(): ReturnType<typeof makeHooksSchema> {
  schema ??= makeHooksSchema();
  return schema;
}
/** `dialect`: a Gemini CLI group gets Gemini's event and tool names on stdin and in its matcher; every other group Claude Code's. */
export type HookGroup = z.infer<ReturnType<typeof makeGroup>> & { dialect?: 'gemini-cli' };
export type HooksConfig = Partial<Record<HookEvent, HookGroup[]>>;

/** The hooks we run, and warnings for what we do not (unknown events, malformed groups). */
export function parseHooks(raw: unknown, file: string): { hooks: HooksConfig; warnings: string[] } {
  const commandsOnly = withoutOtherTypes(raw, file);
  const parsed = hooksSchema().safeParse(commandsOnly.raw ?? {});
  if (!parsed.success) return { hooks: {}, warnings: [`hooks in ${file} ignored: expected { "<Event>": [{ "matcher": "…", "hooks": [{ "type": "command", "command": "…" }] }] }.`] };
  const hooks: HooksConfig = {};
  const warnings: string[] = [...commandsOnly.warnings];
  for (const [event, groups] of Object.entries(parsed.data)) {
    if ((HOOK_EVENTS as readonly string[]).includes(event)) hooks[event as HookEvent] = groups;
    else warnings.push(`hooks in ${file}: ${event} is not run by vibe-agent (it runs ${HOOK_EVENTS.join(', ')}).`);
  }
  return { hooks, warnings };
}

/** Claude Code's other hook types (`prompt`, `agent`, `http`, …) are skipped with a warning, not the whole file. */
function withoutOtherTypes(raw: unknown, file: string): { raw: unknown; warnings: string[] } {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { raw, warnings: [] };
  const warnings: string[] = [];
  const isOther = (hook: unknown) => !!hook && typeof hook === 'object' && typeof (hook as { type?: unknown }).type === 'string' && (hook as { type: string }).type !== 'command';
  const events = Object.entries(raw as Record<string, unknown>).map(([event, groups]) => {
    if (!Array.isArray(groups)) return [event, groups];
    return [event, groups.map((group: unknown) => {
      const hooks = (group as { hooks?: unknown })?.hooks;
      if (!Array.isArray(hooks) || !hooks.some(isOther)) return group;
      for (const hook of hooks.filter(isOther)) warnings.push(`hooks in ${file}: a "${(hook as { type: string }).type}" hook at ${event} is not run (vibe-agent runs "command" hooks).`);
      return { ...(group as object), hooks: hooks.filter((hook) => !isOther(hook)) };
    })];
  });
  return { raw: Object.fromEntries(events), warnings };
}
