import { readBackgroundEntries } from '../../../background/background-registry.js';
import { landUnderWay } from '../../../background/land-lock.js';
import { landSession } from '../../../background/land-session.js';
import type { LandResult } from '../../../background/land-types.js';
import type { SessionInfo } from '../../../server/api-schemas.js';
import type { HostedLand, LandResultBody } from '../../../server/land-schemas.js';
import { sessionState } from '../../../contracts/session-state.js';
import type { CliArgs } from '../../args/cli-args.js';
import { configuredChecks, unapprovedChecksReason } from '../background/land-checks.js';

interface Landed {
  id: string;
  info(): SessionInfo;
  /** Its events so far, for the state: the last `stop` reason and the last type. */
  events(): ReadonlyArray<{ type: string; reason?: unknown }>;
}

/**
 * A served session's land: landSession (src/background) with no one to ask — the whole change (or the
 * files named), and the project's own checks only when already approved for the workspace (else the
 * land is refused, as a land without a terminal is). One land of a session at a time.
 */
export function servedLand(session: Landed, args: CliArgs, env: NodeJS.ProcessEnv): HostedLand {
  const entry = () => readBackgroundEntries(env).find((one) => one.id === session.id);
  let landing = false;
  return {
    landing: () => {
      if (landing) return true;
      const worktree = entry()?.worktree;
      return worktree !== undefined && landUnderWay(worktree) !== undefined;
    },
    worktree() {
      const found = entry();
      if (!found?.worktree || !found.branch) return undefined;
      return { name: found.name, branch: found.branch, path: found.worktree, ...(found.landed ? { landed: found.landed } : {}) };
    },
    async land(body) {
      const found = entry();
      if (!found) return undefined;
      if (landing) return refusal(`a land of ${found.name} is already under way`);
      landing = true;
      try {
        const events = session.events();
        const lastStop = events.filter((event) => event.type === 'stop').at(-1)?.reason;
        const state = sessionState(session.info(), typeof lastStop === 'string' ? lastStop : undefined, events.at(-1)?.type);
        const result = await landSession({
          entry: found,
          state,
          checks: { given: body.checks ?? [], none: body.noCheck === true, configured: () => configuredChecks(args, found.repo, env) },
          only: body.only ?? [],
          whole: true,
          env,
        });
        return asBody(result);
      } finally {
        landing = false;
      }
    },
  };
}

const refusal = (reason: string): LandResultBody => ({ outcome: 'refused', reason, error: reason });

function asBody(result: LandResult): LandResultBody {
  switch (result.outcome) {
    case 'landed':
    case 'nothing':
      return result;
    case 'refused':
      return refusal(result.unapprovedChecks ? unapprovedChecksReason(result.unapprovedChecks) : result.reason);
    case 'check_failed':
      return { ...result, error: result.reason };
    case 'pushed':
    case 'interrupted':
      throw new Error(`a land over HTTP ended as ${result.outcome}, which it cannot`);
  }
}
