import { createPermissionPolicy, type PermissionOptions, type PermissionPolicy } from '../../permissions/permission-policy.js';
import type { PlanScope } from '../../permissions/plan-scope.js';
import type { UnaskedCall } from '../../permissions/unasked-call.js';
import type { RefusedCall } from '../../permissions/auto-review.js';
import { ConfigError } from '../../providers/create-provider.js';
import type { AskApproval } from '../../tools/approval.js';
import { askThroughHooks } from '../../hooks/permission-hooks.js';
import type { PreparedRun } from './prepare-run.js';

export interface PolicyChoice {
  /** How this front end asks the person (the terminal, the TUI, an editor, a server's clients); absent when nobody can be asked. */
  ask: AskApproval | undefined;
  /** An approved plan being carried out from the start (a one-shot run's --plan-file). */
  planScope?: PlanScope;
  /** Told of each call refused because it needed asking and nobody could be asked. */
  onUnasked?: (call: UnaskedCall) => void;
  /** Told when the auto mode's refusals reach a limit and nobody can be asked: the run should stop. */
  onHandBack?: (refused: readonly RefusedCall[]) => void;
}

/**
 * A session's permission policy, built here for every front end (one-shot run, TUI, editor,
 * server): the settings' mode and rules, the hooks around each question, and the auto mode's
 * reviewer. A front end brings only its way of asking, and, when it may have nobody to ask, where
 * the refusals that would have been questions go. Where someone can be asked, the auto mode's
 * hand-back is a question to them (and a `permission_review` event), so those sinks stay silent.
 */
export function sessionPolicy(prepared: Pick<PreparedRun, 'settings' | 'hooks' | 'reviewer'>, choice: PolicyChoice): PermissionPolicy {
  const asking = askThroughHooks(prepared.hooks, choice.ask);
  return policyOf(prepared.settings, {
    ...(choice.planScope ? { planScope: choice.planScope } : {}),
    ...(asking ? { ask: asking } : {}),
    ...(choice.onUnasked ? { onUnasked: choice.onUnasked } : {}),
    auto: { reviewer: prepared.reviewer, ...(choice.onHandBack ? { onHandBack: choice.onHandBack } : {}) },
  });
}

/**
 * The policy of a replay (`vibe-agent replay`): the settings' mode and rules with nothing that
 * reaches outside, no hooks, no question and no reviewer. The replay's tools answer from the
 * recording without consulting it, and the recorded reviewer verdicts are reproduced from the
 * session file (replay-reviews.ts), never by asking a reviewer here.
 */
export function replayPolicy(prepared: Pick<PreparedRun, 'settings'>): PermissionPolicy {
  return policyOf(prepared.settings, {});
}

function policyOf(settings: PreparedRun['settings'], options: Omit<PermissionOptions, 'mode' | 'allow' | 'deny'>): PermissionPolicy {
  try {
    return createPermissionPolicy({ mode: settings.permissionMode, allow: settings.permissions.allow, deny: settings.permissions.deny, ...options });
  } catch (error) {
    throw new ConfigError(`Invalid permission rule in config: ${(error as Error).message}`);
  }
}
