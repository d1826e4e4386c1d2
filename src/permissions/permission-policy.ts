import type { AskApproval } from '../contracts/approval.js';
import type { Authorize, AuthorizeRequest, Tool } from '../contracts/tool.js';
import { matchesRule, parseRule, type PermissionRule } from './permission-rule.js';
import { agentHomeDirs, touchesProtectedPath } from './protected-paths.js';
import { alwaysScope } from './always-scope.js';
import { planDeviation, type PlanScope } from './plan-scope.js';
import { allowRuleFor, type UnaskedCall } from './unasked-call.js';
import { createAutoReview, type AutoReviewOptions } from './auto-review.js';

export { PERMISSION_MODES, type PermissionMode } from './permission-modes.js';
import type { PermissionMode } from './permission-modes.js';

export interface PermissionOptions {
  mode: PermissionMode;
  /** Rules such as "shell(git status*)" or "edit(src/**)". Deny beats allow; both beat the mode. */
  allow?: string[];
  deny?: string[];
  /** How to ask the user; absent when there is no terminal (then a call that needs asking is denied). */
  ask?: AskApproval;
  /**
   * The agent's own folders, whose files are asked about in every mode but yolo (like `.git/` and
   * `.vibe-agent/`). Default: the user's config and data folders from the environment.
   */
  protectedDirs?: readonly string[];
  /**
   * An approved plan being carried out: a write or command it does not name asks again, in every
   * mode (yolo included), and is denied without a terminal. See parsePlanScope.
   */
  planScope?: PlanScope;
  /** Told of each call denied because it needed asking and there was no `ask` (a headless run's exit code says so). */
  onUnasked?: (call: UnaskedCall) => void;
  /** The auto mode's reviewer and what happens at its refusal limits (the person is asked through `ask`). */
  auto?: Omit<AutoReviewOptions, 'ask'>;
}

/** The check itself, whose mode (and approved plan) the interactive session can change between runs. */
export type PermissionPolicy = Authorize & {
  readonly mode: PermissionMode;
  readonly planScope: PlanScope | undefined;
  /** Changes the mode; with `planScope`, calls outside that plan ask again until the next setMode. */
  setMode(mode: PermissionMode, planScope?: PlanScope): void;
};

/**
 * The permission check the registry calls before any call that writes or executes. Order:
 * deny rules, allow rules, grants the user gave with "always" this session, then the mode.
 */
export function createPermissionPolicy(options: PermissionOptions): PermissionPolicy {
  let mode = options.mode;
  let planScope = options.planScope;
  const deny = (options.deny ?? []).map(parseRule);
  const allow = (options.allow ?? []).map(parseRule);
  const grants: PermissionRule[] = [];
  const protectedDirs = options.protectedDirs ?? agentHomeDirs();
  const auto = createAutoReview({ ...options.auto, ...(options.ask ? { ask: options.ask } : {}) }, protectedDirs);

  const authorize = async (request: AuthorizeRequest): ReturnType<Authorize> => {
    const { tool, args, call, preview, workspace, signal, hookAllowed } = request;
    const denied = deny.find((rule) => matchesRule(rule, tool, args, workspace, 'deny'));
    if (denied) {
      const reason = `the rule "${denied.text}" in permissions.deny forbids this call.`;
      return { allowed: false, reason, ...(mode === 'auto' ? { review: { tier: 'rule' as const, verdict: 'deny' as const, reason } } : {}) };
    }
    if (mode === 'plan' && !runsInPlanMode(tool)) {
      return { allowed: false, reason: `plan mode: only read-only tools run, and ${tool.name} is not one. Do not retry it; put it in your plan.` };
    }
    // Reads come here only for the deny rules above; they never ask.
    if (!tool.needsApproval) return { allowed: true };
    if (mode === 'auto') {
      const hard = await auto.hardDeny(request);
      if (hard) return hard;
    }
    if (hookAllowed) return { allowed: true };
    if (allow.some((rule) => matchesRule(rule, tool, args, workspace, 'allow'))) return { allowed: true };
    // Outside the approved plan: asked again whatever the mode, an "always" for it included.
    const deviation = planScope && planDeviation(planScope, tool, args, workspace);
    if (deviation) {
      if (!options.ask) {
        options.onUnasked?.({ tool: tool.name, summary: preview.summary, category: tool.permission.category, allow: allowRuleFor(tool, args, workspace), outsidePlan: true });
        return { allowed: false, reason: `${deviation}, and there is no terminal to ask the user. Do not retry it; say what you wanted to do and why the plan needs it.` };
      }
      const answer = await options.ask({ call, tool: tool.name, summary: `${preview.summary} (outside the approved plan)`, detail: [`Not in the plan: ${deviation}.`, ...(preview.detail !== undefined ? [preview.detail] : [])].join('\n') }, signal);
      if (signal.aborted) return { allowed: false, reason: 'the run was cancelled before the user answered.' };
      return answer === 'no' ? { allowed: false, reason: `the user declined this call: ${deviation}.` } : { allowed: true };
    }
    if (mode === 'yolo') return { allowed: true };
    if (mode === 'auto') return auto.decide(request);
    // Git runs what .git/config and .git/hooks say (core.fsmonitor on `git status`, diff.external,
    // hooks), and the agent obeys its own config and memory, so an edit there is shell access:
    // neither auto-edit nor an "always" for edits covers it.
    const guarded = touchesProtectedPath(tool, args, workspace, protectedDirs);
    if (!guarded && grants.some((rule) => matchesRule(rule, tool, args, workspace, 'allow'))) return { allowed: true };
    if (!guarded && mode === 'auto-edit' && tool.permission.category === 'edit') return { allowed: true };

    if (!options.ask) {
      options.onUnasked?.({ tool: tool.name, summary: preview.summary, category: tool.permission.category, allow: allowRuleFor(tool, args, workspace), outsidePlan: false });
      return {
        allowed: false,
        reason:
          `${tool.name} needs the user's approval and there is no terminal to ask. Do not retry it; ` +
          'tell the user what you wanted to run. (The user can allow it with --yes, --permission-mode auto-edit for file edits, ' +
          'or a permissions.allow rule in their user config, ~/.config/vibe-agent/config.json; a project\'s .vibe-agent/config.json cannot allow calls.)',
      };
    }
    const scope = alwaysScope(tool, args);
    const answer = await options.ask({ call, tool: tool.name, summary: preview.summary, ...(preview.detail !== undefined ? { detail: preview.detail } : {}), always: scope }, signal);
    if (signal.aborted) return { allowed: false, reason: 'the run was cancelled before the user answered.' };
    if (answer === 'always') {
      // A tool's identity is granted as is: an MCP server's name may hold what a rule's text cannot.
      grants.push(tool.permission.identity ? { text: scope, name: scope } : parseRule(scope));
      return { allowed: true };
    }
    if (answer === 'yes') return { allowed: true };
    return { allowed: false, reason: 'the user declined this call.' };
  };
  const policy = Object.assign(authorize, {
    checksEveryCall: true,
    setMode(next: PermissionMode, scope?: PlanScope) {
      mode = next;
      planScope = scope;
    },
  });
  Object.defineProperty(policy, 'mode', { get: () => mode, enumerable: true });
  Object.defineProperty(policy, 'planScope', { get: () => planScope, enumerable: true });
  return policy as PermissionPolicy;
}

/** Read-only tools, and concurrent ones that touch nothing themselves (a subagent: each of its calls comes here too). */
function runsInPlanMode(tool: Tool): boolean {
  return tool.readOnly || (tool.concurrent === true && tool.permission.category === 'read');
}

