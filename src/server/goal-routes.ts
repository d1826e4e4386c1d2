import type { IncomingMessage, ServerResponse } from 'node:http';
import { GOAL_ROUTES } from './goal-route-specs.js';
import { setGoalBodySchema } from './goal-schemas.js';
import { readJsonBody } from './read-body.js';
import { reply } from './replies.js';
import type { RouteContext } from './route-handlers.js';
import type { RouteSpec } from './route-specs.js';

const GOAL_OPERATIONS: ReadonlySet<string> = new Set(GOAL_ROUTES.map((route) => route.operationId));

export const isGoalRoute = (route: RouteSpec): boolean => GOAL_OPERATIONS.has(route.operationId);

/** Runs one goal route (errors thrown here become their status in http-server.ts: GoalRefused a 409). */
export async function handleGoalRoute(route: RouteSpec, params: Record<string, string>, request: IncomingMessage, response: ServerResponse, context: RouteContext): Promise<void> {
  // The body is read (and refused when bad) before the session is looked up, as the other routes do.
  const body = route.operationId === 'setGoal' ? await readJsonBody(request, setGoalBodySchema, context.limits.body) : undefined;
  const id = decodeURIComponent(params.id ?? '');
  const session = await context.registry.get(id);
  if (!session) return reply(response, 404, { error: `no session ${id} on this server` });
  const goal = session.goal;
  if (!goal) return reply(response, 404, { error: `session ${id} cannot hold a goal on this server` });
  switch (route.operationId) {
    case 'setGoal':
      return reply(response, 202, await goal.set(body!));
    case 'getGoal': {
      const state = goal.state();
      return state ? reply(response, 200, state) : reply(response, 404, { error: `session ${id} has no goal` });
    }
    case 'clearGoal': {
      const state = await goal.clear();
      return state ? reply(response, 200, state) : reply(response, 404, { error: `session ${id} has no goal` });
    }
  }
  throw new Error(`route ${route.operationId} has no handler`);
}
