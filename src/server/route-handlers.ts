import type { IncomingMessage, ServerResponse } from 'node:http';
import { approvalBodySchema, createSessionBodySchema, modeBodySchema, promptBodySchema } from './api-schemas.js';
import { eventPage, streamEvents } from './event-stream.js';
import { reply, type ServerLimits } from './replies.js';
import { openApiDocument } from './openapi-document.js';
import { BadRequest, readJsonBody } from './read-body.js';
import type { RouteSpec } from './route-specs.js';
import { AtCapacity, type SessionRegistry } from './session-registry.js';
import type { HostedSession } from './session-port.js';
import type { HostedAgents } from './session-port.js';

export interface RouteContext {
  registry: SessionRegistry;
  limits: ServerLimits;
  version: string;
  streams: { open: number };
  /** The background sessions (GET /v1/agents); absent: this host keeps none. */
  agents?: HostedAgents;
}

type Params = Record<string, string>;

/** Runs one matched route; errors thrown here become their status in http-server.ts. */
export async function handleRoute(route: RouteSpec, params: Params, request: IncomingMessage, response: ServerResponse, context: RouteContext): Promise<void> {
  const { registry, limits } = context;
  const session = async (): Promise<HostedSession | undefined> => {
    const found = await registry.get(decodeURIComponent(params.id ?? ''));
    if (!found) reply(response, 404, { error: `no session ${params.id} on this server` });
    return found;
  };
  switch (route.operationId) {
    case 'openapi':
      return reply(response, 200, openApiDocument(context.version));
    case 'health':
      return reply(response, 200, { ok: true, version: context.version });
    case 'createSession': {
      const body = await readJsonBody(request, createSessionBodySchema, limits.body);
      const created = await registry.create(body);
      return reply(response, 201, created.info());
    }
    case 'listSessions':
      return reply(response, 200, { sessions: registry.list().map((entry) => entry.info()) });
    case 'getSession': {
      const found = await session();
      return found && reply(response, 200, found.info());
    }
    case 'deleteSession': {
      const id = decodeURIComponent(params.id ?? '');
      if (!(await registry.stop(id))) return reply(response, 404, { error: `no session ${id} open on this server` });
      return reply(response, 204);
    }
    case 'prompt': {
      const body = await readJsonBody(request, promptBodySchema, limits.body);
      const found = await session();
      if (!found) return;
      if (found.land?.landing()) return reply(response, 409, { error: `session ${found.id} is being landed; send the prompt once the land has ended` });
      found.prompt(body.text, body.mode, { ...(body.permissionMode ? { permissionMode: body.permissionMode } : {}), ...(body.planScope ? { planScope: body.planScope } : {}) });
      return reply(response, 202, { ok: true, lastSeq: found.info().lastSeq });
    }
    case 'answerApproval': {
      const body = await readJsonBody(request, approvalBodySchema, limits.body);
      const found = await session();
      if (!found) return;
      const outcome = found.answer(decodeURIComponent(params.requestId ?? ''), body.decision);
      if (outcome === 'accepted') return reply(response, 200, { ok: true, lastSeq: found.info().lastSeq });
      if (outcome === 'answered') return reply(response, 409, { error: `request ${params.requestId} was already answered` });
      return reply(response, 404, { error: `no approval request ${params.requestId} in this session` });
    }
    case 'setMode': {
      const body = await readJsonBody(request, modeBodySchema, limits.body);
      const found = await session();
      if (!found) return;
      const mode = found.setMode(body.permissionMode, body.planScope);
      if (!mode) return reply(response, 409, { error: `session ${found.id} has no permission mode to change` });
      return reply(response, 200, { permissionMode: mode });
    }
    case 'interrupt': {
      const found = await session();
      return found && reply(response, 200, { interrupted: found.interrupt() });
    }
    case 'events':
      return events(request, response, context, await session());
  }
  throw new Error(`route ${route.operationId} has no handler`);
}

async function events(request: IncomingMessage, response: ServerResponse, context: RouteContext, found: HostedSession | undefined): Promise<void> {
  if (!found) return;
  const query = new URL(request.url ?? '/', 'http://server').searchParams;
  const lastEventId = request.headers['last-event-id'];
  const after = count(query.get('after') ?? (typeof lastEventId === 'string' ? lastEventId : null), 'after', 0);
  if (/\bapplication\/json\b/.test(request.headers.accept ?? '')) {
    const limit = Math.min(count(query.get('limit'), 'limit', 500), 5000);
    return reply(response, 200, await eventPage(found, after, Math.max(1, limit)));
  }
  if (context.streams.open >= context.limits.streams) throw new AtCapacity(`${context.limits.streams} event streams are open, this server's limit (--max-streams)`);
  context.streams.open += 1;
  try {
    await streamEvents(found, after, response, context.limits.stream);
  } finally {
    context.streams.open -= 1;
  }
}

function count(text: string | null, name: string, fallback: number): number {
  if (text === null || text === '') return fallback;
  if (!/^\d{1,15}$/.test(text)) throw new BadRequest(`${name} must be a whole number (a sequence number), not "${text}"`);
  return Number(text);
}
