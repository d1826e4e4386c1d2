import { createPermissionPolicy, type PermissionPolicy } from '../../permissions/permission-policy.js';
import type { PlanScope } from '../../permissions/plan-scope.js';
import type { UnaskedCall } from '../../permissions/unasked-call.js';
import { ConfigError } from '../../providers/create-provider.js';
import type { AskApproval } from '../../tools/approval.js';
import type { Settings } from '../settings/settings.js';
import { colorEnabled } from '../display/theme.js';
import { createTerminalApproval } from './terminal-approval.js';
import type { Hooks } from '../../hooks/hooks.js';
import { askThroughHooks } from '../../hooks/permission-hooks.js';
import type { SideModel } from '../../side-model/ask-side-model.js';
import type { RefusedCall } from '../../permissions/auto-review.js';

/**
 * The CLI's permission check. A one-shot run asks on the terminal when stdin and stderr are
 * both terminals; otherwise (CI, pipes) calls that need approval are denied, never left hanging.
 */
export function createCliAuthorize(
  settings: Pick<Settings, 'permissionMode' | 'permissions'>,
  ask: AskApproval | undefined = terminalAsk(),
  planScope?: PlanScope,
  extras: { onUnasked?: (call: UnaskedCall) => void; hooks?: Hooks; reviewer?: SideModel; onHandBack?: (refused: readonly RefusedCall[]) => void } = {},
): PermissionPolicy {
  const { onUnasked, hooks, reviewer, onHandBack } = extras;
  const asking = askThroughHooks(hooks, ask);
  try {
    return createPermissionPolicy({
      mode: settings.permissionMode,
      ...(planScope ? { planScope } : {}),
      allow: settings.permissions.allow,
      deny: settings.permissions.deny,
      ...(asking ? { ask: asking } : {}),
      ...(onUnasked ? { onUnasked } : {}),
      auto: { ...(reviewer ? { reviewer } : {}), ...(onHandBack ? { onHandBack } : {}) },
    });
  } catch (error) {
    throw new ConfigError(`Invalid permission rule in config: ${(error as Error).message}`);
  }
}

function terminalAsk(): AskApproval | undefined {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return undefined;
  return createTerminalApproval({ input: process.stdin, output: process.stderr, color: colorEnabled(process.stderr) });
}
