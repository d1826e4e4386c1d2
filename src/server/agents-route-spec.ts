import { errorSchema } from './api-schemas.js';
import { agentListSchema, agentSchema } from './agent-schemas.js';
import type { RouteSpec } from './route-specs.js';

const unauthorized = { description: 'No valid bearer token.', schema: errorSchema };

export const AGENT_ROUTES: readonly RouteSpec[] = [
  {
    operationId: 'listAgents',
    method: 'GET',
    path: '/v1/agents',
    summary:
      'Every background session of this data folder (`vibe-agent --bg`), as `vibe-agent agents` lists them: state (working, needs you, done, failed, stopped), worktree, cost, last event, waiting approvals, goal and end-of-session report. One the server does not hold is reopened from its file.',
    replies: { 200: { description: 'The background sessions.', schema: agentListSchema }, 401: unauthorized },
  },
  {
    operationId: 'getAgent',
    method: 'GET',
    path: '/v1/agents/{id}',
    summary: 'One background session, as GET /v1/agents shows it.',
    replies: { 200: { description: 'The background session.', schema: agentSchema }, 401: unauthorized, 404: { description: 'No background session with that id.', schema: errorSchema } },
  },
];
