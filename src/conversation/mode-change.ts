import type { PermissionMode, PermissionPolicy } from '../permissions/permission-policy.js';
import type { PlanScope } from '../permissions/plan-scope.js';
import type { ConversationNotice, ModeChange } from './conversation-types.js';

export type ModeChanged = Extract<ConversationNotice, { type: 'mode_changed' }>;

/**
 * Sets the policy's mode and plan bounds; the event that records it, or undefined when both already
 * held (a server prompt carries the mode its terminal shows every time: no change, no event).
 */
export function changeMode(policy: PermissionPolicy, mode: PermissionMode, change: ModeChange): ModeChanged | undefined {
  const previous = policy.mode;
  const same = previous === mode && sameScope(policy.planScope, change.planScope);
  policy.setMode(mode, change.planScope);
  if (same) return undefined;
  const { planScope } = change;
  return { type: 'mode_changed', mode, previous, by: change.by, ...(planScope ? { planScope: { files: planScope.files, commands: planScope.commands } } : {}) };
}

/**
 * A resumed session opens in the mode its settings give (`--permission-mode`, the config), never
 * the one it was left in, as Claude Code and Codex resume in their default mode: a session left in
 * yolo does not come back in yolo. When that differs from the file's last recorded mode, the
 * change is recorded, so the file says which mode each later run ran in.
 */
export function modeAtResume(stored: ReadonlyArray<{ type: string }>, opensIn: PermissionMode): ModeChanged | undefined {
  const last = stored.findLast((event): event is ModeChanged & { seq: number } => event.type === 'mode_changed');
  if (!last || last.mode === opensIn) return undefined;
  return { type: 'mode_changed', mode: opensIn, previous: last.mode, by: 'resume' };
}

function sameScope(a: PlanScope | undefined, b: PlanScope | undefined): boolean {
  if (!a || !b) return a === b;
  return a.files.join('\n') === b.files.join('\n') && a.commands.join('\n') === b.commands.join('\n');
}
