import type { IncomingMessage, ServerResponse } from 'node:http';
import { landBodySchema } from './land-schemas.js';
import { readJsonBody } from './read-body.js';
import { reply } from './replies.js';
import type { RouteContext } from './route-handlers.js';
import type { RouteSpec } from './route-specs.js';

/** POST /v1/sessions/{id}/land: the hosted session's land, its result as the reply. */
export async function handleLandRoute(_route: RouteSpec, params: Record<string, string>, request: IncomingMessage, response: ServerResponse, context: RouteContext): Promise<void> {
  const body = await readJsonBody(request, landBodySchema, context.limits.body);
  const id = decodeURIComponent(params.id ?? '');
  const session = await context.registry.get(id);
  if (!session) return reply(response, 404, { error: `no session ${id} on this server` });
  const result = await session.land?.land(body);
  if (!result) return reply(response, 404, { error: `session ${id} is no background session (vibe-agent --bg -w starts one in a worktree)` });
  return reply(response, result.outcome === 'landed' || result.outcome === 'nothing' ? 200 : 409, result);
}
