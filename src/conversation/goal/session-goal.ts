import { emptyUsage } from '../../contracts/messages.js';
import { unfinishedGoal, type UnfinishedGoal } from './goal-resume.js';
import { goalState, type GoalState } from './goal-state.js';
import { GOAL_CLEARED, type GoalSpent } from './goal-types.js';
import { pursueGoal, type GoalHost, type GoalResult, type GoalSpec } from './pursue-goal.js';

/** A request the goal cannot meet now (one is already running, there is none to continue). */
export class GoalConflict extends Error {
  override name = 'GoalConflict';
}

/** A front end's hold on its session's one goal: set it, read how it stands, clear it. */
export interface SessionGoal {
  /** Starts the goal in the background; throws GoalConflict while one runs. Resolves to its state once `goal_start` is recorded. */
  set(spec: Omit<GoalSpec, 'signal' | 'resumed'>): GoalState;
  /** Continues the session's unfinished goal (cancelled, or its process stopped) with its caps and what it had spent. */
  continue(spec: Omit<GoalSpec, 'signal' | 'resumed' | 'condition' | 'caps' | 'firstPrompt'>): GoalState;
  /** The latest goal from the events; `unfinished` when it is not running here and never ended. */
  state(): SessionGoalState | undefined;
  /** Ends the goal as `cleared` (a running one is stopped first); undefined when there is no goal to clear. */
  clear(): Promise<SessionGoalState | undefined>;
  /** Stops a running goal as cancelled (`aborted`: a later resume may continue it, with consent); resolves once it has ended. */
  cancel(): Promise<void>;
  /** The running goal's end (undefined when none runs). */
  done(): Promise<GoalResult> | undefined;
}

export type SessionGoalState = Omit<GoalState, 'status'> & { status: GoalState['status'] | 'unfinished' };

type Host = GoalHost & { events(): ReadonlyArray<{ type: string; seq?: number }> };

/** One session's goal, run through the conversation core (pursueGoal) and read back from its numbered events. */
export function sessionGoal(host: Host, onError: (error: Error) => void): SessionGoal {
  let running: { controller: AbortController; done: Promise<GoalResult>; startedAt: number } | undefined;

  const launch = (spec: GoalSpec, resumed?: UnfinishedGoal): GoalState => {
    if (running) throw new GoalConflict('this session already pursues a goal; clear it first (DELETE …/goal)');
    const controller = new AbortController();
    const startedAt = Date.now();
    const done = pursueGoal(host, { ...spec, ...(resumed?.spent ? { resumed: resumed.spent } : {}), signal: controller.signal });
    running = { controller, done, startedAt };
    done.then(
      () => (running = running?.done === done ? undefined : running),
      (error: unknown) => {
        if (running?.done === done) running = undefined;
        onError(error as Error);
      },
    );
    // pursueGoal records goal_start before its first await, so the state is there now.
    return goalState(host.events(), Date.now, startedAt)!;
  };

  const state = (): SessionGoalState | undefined => {
    const found = goalState(host.events(), Date.now, running?.startedAt);
    if (!found) return undefined;
    return found.status === 'running' && !running ? { ...found, status: 'unfinished' } : found;
  };

  return {
    set: (spec) => launch(spec),
    continue(spec) {
      if (running) throw new GoalConflict('this session already pursues a goal');
      const open = unfinishedGoal(host.events());
      if (!open) throw new GoalConflict('this session has no unfinished goal to continue');
      return launch({ ...spec, condition: open.start.condition, caps: open.start.caps }, open);
    },
    state,
    async clear() {
      if (running) {
        const { controller, done } = running;
        controller.abort(GOAL_CLEARED);
        await done.catch(() => undefined);
        return state();
      }
      const found = state();
      if (!found || found.status !== 'unfinished') return found;
      // Not running here (cancelled, or its process stopped): its end is recorded so it is over.
      const open = unfinishedGoal(host.events());
      const spent: GoalSpent = open?.spent ?? { turns: 0, tokens: 0, agentCost: 0, judgeCost: 0, agentUsage: emptyUsage(), judgeUsage: emptyUsage(), elapsedMs: 0 };
      host.note({ type: 'goal_end', outcome: 'cleared', reason: 'the goal was cleared', spent, report: `Goal: ${found.condition}\nOutcome: cleared before it was continued` });
      return state();
    },
    async cancel() {
      if (!running) return;
      const { controller, done } = running;
      controller.abort();
      await done.catch(() => undefined);
    },
    done: () => running?.done,
  };
}
