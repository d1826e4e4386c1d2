import { GEMINI_EVENT_NAMES, GEMINI_TOOL_NAMES, type HookEvent, type HookGroup, type HooksConfig } from './hook-config.js';
import { runHookCommand, type HookRun } from './run-hook.js';

/** What the hooks of one event decided, together. */
export interface HookOutcome {
  /** Exit code 2, or a JSON decision "block" / permissionDecision "deny": the reason, for the model. */
  blocked?: string;
  /** PreToolUse: "allow" skips the permission prompt, "ask" asks even where a rule would allow. */
  permissionDecision?: 'allow' | 'ask';
  /** `additionalContext`, and for SessionStart and UserPromptSubmit plain stdout too. */
  context: string[];
}

export interface HooksOptions {
  cwd: string;
  warn(message: string): void;
  /** Per hook, unless it sets its own `timeout` (seconds). Claude Code's default: 60 s. */
  defaultTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

interface HookJson {
  decision?: string;
  reason?: string;
  continue?: boolean;
  stopReason?: string;
  hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string; additionalContext?: string };
}

/**
 * Claude Code's hooks: shell commands that get the event as JSON on stdin. A hook that fails
 * (hangs past its time, crashes, prints garbage) is a warning and decides nothing.
 */
export class Hooks {
  /** Set once the session is known; sent as `session_id`. */
  sessionId = '';

  constructor(
    private readonly config: HooksConfig,
    private readonly options: HooksOptions,
  ) {}

  has(event: HookEvent): boolean {
    return (this.config[event]?.length ?? 0) > 0;
  }

  /** Runs the event's hooks (for tool events, those whose matcher fits one of `toolNames`) in parallel. */
  async run(event: HookEvent, fields: Record<string, unknown>, toolNames: string[] = []): Promise<HookOutcome> {
    // A Gemini CLI group sees Gemini's names: its matcher and the JSON on stdin use them.
    const ours = toolNames.at(-1);
    const gemini = ours !== undefined ? (GEMINI_TOOL_NAMES[ours] ?? ours) : undefined;
    const namesFor = (group: HookGroup) => (group.dialect === 'gemini-cli' && gemini !== undefined ? [gemini, ours!] : toolNames);
    const commands = (this.config[event] ?? []).filter((group) => matches(group, namesFor(group))).flatMap((group) => group.hooks.map((hook) => ({ hook, gemini: group.dialect === 'gemini-cli' })));
    const outcome: HookOutcome = { context: [] };
    if (commands.length === 0) return outcome;
    const input = { session_id: this.sessionId, cwd: this.options.cwd, hook_event_name: event, ...fields };
    const geminiInput = { ...input, hook_event_name: GEMINI_EVENT_NAMES[event], ...(gemini !== undefined && 'tool_name' in fields ? { tool_name: gemini } : {}) };
    const runs = await Promise.all(
      commands.map(async ({ hook, gemini: isGemini }) => ({ command: hook.command, run: await runHookCommand(hook.command, isGemini ? geminiInput : input, { cwd: this.options.cwd, timeoutMs: hook.timeout !== undefined ? hook.timeout * 1000 : (this.options.defaultTimeoutMs ?? 60_000), ...(this.options.env ? { env: this.options.env } : {}) }) })),
    );
    for (const { command, run } of runs) this.read(event, command, run, outcome);
    return outcome;
  }

  private read(event: HookEvent, command: string, run: HookRun, outcome: HookOutcome): void {
    const warn = (why: string) => this.options.warn(`${event} hook \`${command}\` ${why}; it was ignored.`);
    if (run.failure) return warn(run.failure);
    if (run.exitCode === 2) {
      outcome.blocked = join(outcome.blocked, run.stderr.trim() || `blocked by the ${event} hook`);
      return;
    }
    if (run.exitCode !== 0) return warn(`exited with code ${run.exitCode}${run.stderr.trim() ? `: ${run.stderr.trim().split('\n').slice(-2).join(' ')}` : ''}`);
    const stdout = run.stdout.trim();
    if (!stdout) return;
    if (!stdout.startsWith('{')) {
      if (event === 'SessionStart' || event === 'UserPromptSubmit') outcome.context.push(stdout);
      return;
    }
    let json: HookJson;
    try {
      json = JSON.parse(stdout) as HookJson;
    } catch {
      return warn('printed output that starts like JSON but is not');
    }
    const specific = json.hookSpecificOutput ?? {};
    // "deny" is Gemini CLI's word for it.
    if (json.decision === 'block' || json.decision === 'deny' || json.continue === false || specific.permissionDecision === 'deny') {
      outcome.blocked = join(outcome.blocked, json.reason ?? specific.permissionDecisionReason ?? json.stopReason ?? `blocked by the ${event} hook`);
    }
    if (specific.permissionDecision === 'allow' || json.decision === 'approve') outcome.permissionDecision ??= 'allow';
    if (specific.permissionDecision === 'ask') outcome.permissionDecision = 'ask';
    if (specific.additionalContext) outcome.context.push(specific.additionalContext);
  }
}

function join(earlier: string | undefined, reason: string): string {
  return earlier ? `${earlier}\n${reason}` : reason;
}

/** Claude Code's rule: no matcher, "" or "*" is every tool; otherwise a regular expression on the whole name. */
function matches(group: HookGroup, toolNames: string[]): boolean {
  const matcher = group.matcher ?? '';
  if (matcher === '' || matcher === '*' || toolNames.length === 0) return true;
  let pattern: RegExp | undefined;
  try {
    pattern = new RegExp(`^(?:${matcher})$`);
  } catch {
    return toolNames.includes(matcher);
  }
  return toolNames.some((name) => pattern!.test(name));
}
