import type { CheckRunner } from '../../conversation/goal/goal-checks.js';
import { createCheckRunner } from '../../conversation/goal/goal-checks.js';
import type { GoalCaps } from '../../conversation/goal/goal-types.js';
import { createBubblewrapSandbox } from '../../sandbox/bubblewrap-sandbox.js';
import { detectBubblewrap } from '../../sandbox/detect-bubblewrap.js';
import { findSecretPaths } from '../../sandbox/hidden-secrets.js';
import type { SideModel } from '../../side-model/ask-side-model.js';
import { ConfigError } from '../../providers/create-provider.js';
import type { Settings } from '../settings/settings.js';
import type { PreparedRun } from './prepare-run.js';
import { createReviewer } from './reviewer-setup.js';

/** What a goal is run with, from settings: its caps, its judge and the judge's checks. */
export interface GoalSetup {
  caps: GoalCaps;
  stallTurns: number;
  checks: string[];
  judge: SideModel;
  runCheck: CheckRunner;
}

/**
 * The judge is `goalJudge`, else the auto mode's `reviewer`, else the session's model (set up now:
 * a missing key stops the run before any request). Its checks run without a shell, in the
 * bubblewrap sandbox with nothing writable (the workspace read-only, secrets hidden, no network),
 * unless the user turned the sandbox off; `--sandbox on` where it cannot run is an error.
 */
export async function goalSetup(settings: Settings, prepared: Pick<PreparedRun, 'resolved' | 'provider' | 'workspace'>, env: NodeJS.ProcessEnv, warn: (text: string) => void): Promise<GoalSetup> {
  const judge = await createReviewer({ reviewer: settings.goalJudge ?? settings.reviewer, reviewerTimeoutMs: settings.reviewerTimeoutMs, permissionMode: 'auto' }, prepared, env);
  const wrap = readOnlySandbox(settings, prepared.workspace, env, warn);
  return {
    caps: { maxCost: settings.goalMaxCost, maxTokens: settings.goalMaxTokens, maxTurns: settings.goalMaxTurns, maxMs: settings.goalMaxTimeMs },
    stallTurns: settings.goalStallTurns,
    checks: settings.goalChecks,
    judge,
    runCheck: createCheckRunner({ workspace: prepared.workspace, allowed: settings.goalChecks, env, ...(wrap ? { wrap } : {}) }),
  };
}

function readOnlySandbox(settings: Settings, workspace: string, env: NodeJS.ProcessEnv, warn: (text: string) => void): ((argv: string[], cwd: string) => string[]) | undefined {
  if (settings.sandbox === 'off') return undefined;
  const status = detectBubblewrap();
  if (!status.ok) {
    if (settings.sandbox === 'on') throw new ConfigError(`--sandbox on: the goal judge's checks cannot run sandboxed here: ${status.reason}.`);
    warn(`the goal judge's checks run WITHOUT a sandbox: ${status.reason}. Pass --sandbox off to accept that.`);
    return undefined;
  }
  const sandbox = createBubblewrapSandbox({ writable: [], network: false, hidden: findSecretPaths([workspace], env.HOME), bwrap: status.path });
  return (argv, cwd) => sandbox.wrap(argv, cwd);
}
