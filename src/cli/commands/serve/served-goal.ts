import type { ConversationCore } from '../../../conversation/open-conversation.js';
import { GoalConflict, sessionGoal } from '../../../conversation/goal/session-goal.js';
import { taskWithGoal } from '../../../conversation/goal/pursue-goal.js';
import { ConfigError } from '../../../providers/create-provider.js';

import { GoalRefused, type HostedGoal, type SetGoalBody } from '../../../server/goal-schemas.js';
import type { PreparedRun } from '../../setup/prepare-run.js';
import { goalSetup, type GoalSetup } from '../../setup/goal-setup.js';

/**
 * A served session's goal: the same pursueGoal the one-shot run drives, on the session's
 * conversation, with the judge, checks and caps the server's settings give (a request may set its
 * own caps). Questions wait for a client's answer as for any prompt of the session. The judge is
 * set up at the first goal (a missing key refuses that request, not the session).
 */
export function servedGoal(conversation: ConversationCore, prepared: PreparedRun, env: NodeJS.ProcessEnv, warn: (text: string) => void): HostedGoal & { cancel(): Promise<void> } {
  const goal = sessionGoal(conversation, (error) => warn(`the goal of session ${conversation.id} failed: ${error.message}`));
  let setup: Promise<GoalSetup> | undefined;
  const judged = async (): Promise<GoalSetup> => {
    setup ??= goalSetup(prepared.settings, prepared, env, warn);
    try {
      return await setup;
    } catch (error) {
      setup = undefined;
      if (error instanceof ConfigError) throw new GoalRefused(`the goal's judge cannot be set up: ${error.message}`);
      throw error;
    }
  };
  const refusing = <T>(action: () => T): T => {
    try {
      return action();
    } catch (error) {
      if (error instanceof GoalConflict) throw new GoalRefused(error.message);
      throw error;
    }
  };
  return {
    async set(body: SetGoalBody) {
      const { caps, stallTurns, checks, judge, runCheck } = await judged();
      const common = { stallTurns, checks, judge, runCheck };
      if (body.continue) return refusing(() => goal.continue(common));
      const chosen = {
        maxCost: body.maxCost ?? caps.maxCost,
        maxTokens: body.maxTokens ?? caps.maxTokens,
        maxTurns: body.maxTurns ?? caps.maxTurns,
        maxMs: body.maxMinutes !== undefined ? Math.round(body.maxMinutes * 60_000) : caps.maxMs,
      };
      const firstPrompt = body.prompt === undefined ? {} : { firstPrompt: taskWithGoal(body.prompt, body.condition!) };
      return refusing(() => goal.set({ ...common, condition: body.condition!, caps: chosen, ...firstPrompt }));
    },
    state: () => goal.state(),
    clear: () => goal.clear(),
    // An interrupt or closing the session stops its goal as a cancel (not a clear): it may be continued later, on request.
    cancel: () => goal.cancel(),
  };
}
