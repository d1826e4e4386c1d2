import type { IncomingMessage, ServerResponse } from 'node:http';
import { AGENT_ROUTES } from './agents-route-spec.js';
import { reply } from './replies.js';
import type { RouteContext } from './route-handlers.js';
import type { RouteSpec } from './route-specs.js';
import type { HostedSession } from './session-port.js';

export const isAgentRoute = (route: RouteSpec): boolean => AGENT_ROUTES.includes(route);

/** GET /v1/agents and /v1/agents/{id}: the host's background sessions, reopening those it does not hold. */
export async function handleAgentRoute(route: RouteSpec, params: Record<string, string>, _request: IncomingMessage, response: ServerResponse, context: RouteContext): Promise<void> {
  const agents = context.agents;
  const open = (id: string): Promise<HostedSession | undefined> => context.registry.get(id);
  if (route.operationId === 'listAgents') return reply(response, 200, { agents: agents ? await agents.list(open) : [] });
  const id = decodeURIComponent(params.id ?? '');
  const found = await agents?.get(id, open);
  return found ? reply(response, 200, found) : reply(response, 404, { error: `no background session ${id} (vibe-agent agents lists them)` });
}
