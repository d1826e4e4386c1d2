import { CLAUDE_PERMISSION_MODES, CLAUDE_SHAPE } from './claude-shape.js';
import { GEMINI_EVENT_NAMES, GEMINI_SHAPE } from './gemini-shape.js';
import type { HookEvent, HookGroup, HooksConfig } from './hook-config.js';
import type { PeerShape } from './peer-shape.js';
import { runHookCommand, type HookRun } from './run-hook.js';

/** What the hooks of one event decided, together. */
export interface HookOutcome {
  /** Exit code 2, or a JSON decision "block" / permissionDecision "deny": the reason, for the model. */
  blocked?: string;
  /** PreToolUse: "allow" skips the permission prompt, "ask" asks even where a rule would allow. */
  permissionDecision?: 'allow' | 'ask';
  /** The `permissionDecisionReason` given with "ask", shown with the question. */
  askReason?: string;
  /** `additionalContext`, and for SessionStart and UserPromptSubmit plain stdout too. */
  context: string[];
  /** PreToolUse `updatedInput`, in our argument names: the call runs with these instead. */
  updatedInput?: Record<string, unknown>;
  /** `continue: false`: its `stopReason` (shown to the user). */
  stopped?: string;
  /** PermissionRequest's `decision.behavior`: the question answered without asking. */
  answered?: 'allow' | 'deny';
}

/** The tool a tool event is about, in our names. */
export interface HookTool {
  name: string;
  input: Record<string, unknown>;
}

export interface HooksOptions {
  cwd: string;
  warn(message: string): void;
  /** Per hook, unless it sets its own `timeout` (seconds). Claude Code's default: 60 s. */
  defaultTimeoutMs?: number;
  env?: NodeJS.ProcessEnv;
  /** Our permission mode, sent as Claude Code's `permission_mode`. */
  permissionMode?: string;
}

interface HookJson {
  decision?: string;
  reason?: string;
  continue?: boolean;
  stopReason?: string;
  systemMessage?: string;
  hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string; additionalContext?: string; updatedInput?: unknown; decision?: { behavior?: string } };
}

/** Whose names a group's hook sees: Gemini CLI's for its groups, Claude Code's for every other. */
const peerOf = (group: HookGroup): PeerShape => (group.dialect === 'gemini-cli' ? GEMINI_SHAPE : CLAUDE_SHAPE);

/**
 * Claude Code's hooks: shell commands that get the event as JSON on stdin. A hook that fails
 * (hangs past its time, crashes, prints garbage) is a warning and decides nothing.
 */
export class Hooks {
  /** Set once the session is known; sent as `session_id`. */
  sessionId = '';
  /** Set once the session's file is known; sent as `transcript_path`. */
  transcriptPath = '';

  constructor(
    private readonly config: HooksConfig,
    private readonly options: HooksOptions,
  ) {}

  has(event: HookEvent): boolean {
    return (this.config[event]?.length ?? 0) > 0;
  }

  /**
   * Runs the event's hooks (for tool events, those whose matcher fits the tool) in parallel. Each
   * sees its own CLI's names: the event, `tool_name`, `tool_input` and its matcher. Other events
   * match on `subject` when given (PreCompact's `trigger`, Notification's `notification_type`).
   */
  async run(event: HookEvent, fields: Record<string, unknown>, tool?: HookTool, subject?: string): Promise<HookOutcome> {
    const commands = (this.config[event] ?? []).filter((group) => matches(group, tool ? [peerOf(group).toolName(tool.name), tool.name] : subject !== undefined ? [subject] : [])).flatMap((group) => group.hooks.map((hook) => ({ hook, peer: peerOf(group), gemini: group.dialect === 'gemini-cli' })));
    const outcome: HookOutcome = { context: [] };
    if (commands.length === 0) return outcome;
    const common = { session_id: this.sessionId, transcript_path: this.transcriptPath, cwd: this.options.cwd, permission_mode: CLAUDE_PERMISSION_MODES[this.options.permissionMode ?? 'ask'] ?? 'default' };
    const inputFor = (peer: PeerShape, gemini: boolean) => ({
      ...common,
      hook_event_name: gemini ? GEMINI_EVENT_NAMES[event] : event,
      ...fields,
      ...(tool ? { tool_name: peer.toolName(tool.name), tool_input: peer.toPeer(tool.name, tool.input, this.options.cwd) } : {}),
    });
    const runs = await Promise.all(
      commands.map(async ({ hook, peer, gemini }) => ({ command: hook.command, peer, run: await runHookCommand(hook.command, inputFor(peer, gemini), { cwd: this.options.cwd, timeoutMs: hook.timeout !== undefined ? hook.timeout * 1000 : (this.options.defaultTimeoutMs ?? 60_000), ...(this.options.env ? { env: this.options.env } : {}) }) })),
    );
    for (const { command, peer, run } of runs) this.read(event, command, run, outcome, tool && { name: tool.name, peer });
    return outcome;
  }

  private read(event: HookEvent, command: string, run: HookRun, outcome: HookOutcome, tool?: { name: string; peer: PeerShape }): void {
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
    if (typeof json.systemMessage === 'string' && json.systemMessage) this.options.warn(`${event} hook \`${command}\`: ${json.systemMessage}`);
    if (json.continue === false) {
      const reason = typeof json.stopReason === 'string' && json.stopReason ? json.stopReason : `stopped by the ${event} hook`;
      outcome.stopped = join(outcome.stopped, reason);
      this.options.warn(`${event} hook \`${command}\` stopped: ${reason}`);
      // At Stop, "do not continue" is what stopping already is; anywhere else it stops what was about to happen.
      if (event !== 'Stop') outcome.blocked = join(outcome.blocked, reason);
    }
    // "deny" is Gemini CLI's word for it.
    if (json.decision === 'block' || json.decision === 'deny' || specific.permissionDecision === 'deny') {
      outcome.blocked = join(outcome.blocked, json.reason ?? specific.permissionDecisionReason ?? `blocked by the ${event} hook`);
    }
    if (specific.permissionDecision === 'allow' || json.decision === 'approve') outcome.permissionDecision ??= 'allow';
    if (specific.permissionDecision === 'ask') {
      outcome.permissionDecision = 'ask';
      if (typeof specific.permissionDecisionReason === 'string' && specific.permissionDecisionReason) outcome.askReason = join(outcome.askReason, specific.permissionDecisionReason);
    }
    if (specific.additionalContext) outcome.context.push(specific.additionalContext);
    if (event === 'PermissionRequest' && (specific.decision?.behavior === 'allow' || specific.decision?.behavior === 'deny')) {
      // A deny from any hook wins, as with permissionDecision.
      outcome.answered = outcome.answered === 'deny' ? 'deny' : specific.decision.behavior;
    }
    if (event === 'PreToolUse' && tool && specific.updatedInput !== undefined) {
      const updated = specific.updatedInput;
      if (!updated || typeof updated !== 'object' || Array.isArray(updated)) return warn('gave an updatedInput that is not an object');
      outcome.updatedInput = { ...outcome.updatedInput, ...tool.peer.fromPeer(tool.name, updated as Record<string, unknown>) };
    }
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
