import { errorSchema } from './api-schemas.js';
import { goalStateSchema, setGoalBodySchema } from './goal-schemas.js';
import type { RouteSpec } from './route-specs.js';

const refused = {
  401: { description: 'No valid bearer token.', schema: errorSchema },
  404: { description: 'No such session, or it has no goal.', schema: errorSchema },
};

export const GOAL_ROUTES: readonly RouteSpec[] = [
  {
    operationId: 'setGoal',
    method: 'POST',
    path: '/v1/sessions/{id}/goal',
    summary: 'Set the session\'s goal: the agent works turn after turn until the judge, running read-only checks, says it holds, or a cap or no progress stops it. Its goal_start, goal_verdict and goal_end events follow on the stream.',
    body: setGoalBodySchema,
    replies: {
      202: { description: 'Started; its state now.', schema: goalStateSchema },
      400: { description: 'The request is malformed; nothing was done.', schema: errorSchema },
      ...refused,
      409: { description: 'A goal already runs in this session (clear it first), or there is no unfinished goal to continue.', schema: errorSchema },
    },
  },
  {
    operationId: 'getGoal',
    method: 'GET',
    path: '/v1/sessions/{id}/goal',
    summary: "The session's goal: its condition, turns, cost and time so far, each cap and what is left, the last verdict with its evidence, and how it ended.",
    replies: { 200: { description: 'The goal.', schema: goalStateSchema }, ...refused },
  },
  {
    operationId: 'clearGoal',
    method: 'DELETE',
    path: '/v1/sessions/{id}/goal',
    summary: 'Clear the goal: a running one is stopped (its turn interrupted) and ends as cleared; an ended one stays as it ended.',
    replies: { 200: { description: 'The goal as it stands after clearing.', schema: goalStateSchema }, ...refused },
  },
];
