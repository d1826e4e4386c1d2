import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkAccess, type AccessRules } from './access.js';
import { BadRequest } from './read-body.js';
import { handleRoute, type RouteContext } from './route-handlers.js';
import { ROUTES, type RouteSpec } from './route-specs.js';
import { GOAL_ROUTES } from './goal-route-specs.js';
import { handleGoalRoute, isGoalRoute } from './goal-routes.js';
import { GoalRefused } from './goal-schemas.js';
import { handleLandRoute } from './land-route.js';
import { LAND_ROUTE } from './land-route-spec.js';
import { AGENT_ROUTES } from './agents-route-spec.js';
import { handleAgentRoute, isAgentRoute } from './agents-route.js';
import { AtCapacity, SessionRegistry } from './session-registry.js';
import type { SessionHost } from './session-port.js';
import { OpenRefused } from './session-port.js';
import { DEFAULT_LIMITS, reply, type ServerLimits } from './replies.js';
import { sendLivePage } from './live-page.js';

export interface ServerOptions extends AccessRules {
  host: string;
  port: number;
  version: string;
  sessions: SessionHost;
  limits?: Partial<ServerLimits>;
}

export interface RunningServer {
  url: string;
  port: number;
  /** Whether anything is going on: a turn running or waiting for an approval, or an event stream open. */
  busy(): boolean;
  close(): Promise<void>;
}

const RETRY_AFTER_SECONDS = 5;

/** The session server: the route table over node:http, every request checked by checkAccess first. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const limits: ServerLimits = { ...DEFAULT_LIMITS, ...options.limits, stream: { ...DEFAULT_LIMITS.stream, ...options.limits?.stream } };
  const registry = new SessionRegistry(options.sessions, limits.sessions);
  const context: RouteContext = { registry, limits, version: options.version, streams: { open: 0 }, ...(options.sessions.agents ? { agents: options.sessions.agents } : {}) };
  const matchers = [...ROUTES, ...GOAL_ROUTES, LAND_ROUTE, ...AGENT_ROUTES].map((route) => ({ route, pattern: pathPattern(route.path) }));

  // Known once it listens: the origins of this server's own page, whose requests are same-origin.
  let ownOrigins: string[] = [];
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://server').pathname;
    if (path === '/' && (request.method === 'GET' || request.method === 'HEAD')) {
      const access = checkAccess(request, { ...options, ownOrigins }, true);
      if (!access.ok) return reply(response, access.status, { error: access.error });
      return sendLivePage(response, request.method === 'HEAD');
    }
    const matched = matchers.map(({ route, pattern }) => ({ route, match: pattern.exec(path) })).filter((entry) => entry.match);
    const found = matched.find((entry) => entry.route.method === request.method);
    // A preflight carries no token: an allowed origin gets its answer, any other is refused by checkAccess.
    const preflight = request.method === 'OPTIONS' && matched.length > 0;
    const access = checkAccess(request, { ...options, ownOrigins }, preflight || found?.route.open === true);
    if (!access.ok) return reply(response, access.status, { error: access.error }, access.status === 401 ? { 'www-authenticate': 'Bearer' } : {});
    if (access.origin) corsHeaders(response, access.origin);
    if (preflight) return reply(response, access.origin ? 204 : 405);
    if (!found) return reply(response, matched.length ? 405 : 404, { error: matched.length ? `${request.method} is not allowed here` : 'no such route' });
    handlerOf(found.route)(found.route, found.match!.groups ?? {}, request, response, context).catch((error: unknown) => failed(response, error));
  });
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  ownOrigins = originsOf(shownHost, port);
  return {
    url: `http://${shownHost}:${port}`,
    port,
    busy: () => context.streams.open > 0 || registry.list().some((session) => session.info().status === 'running'),
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await registry.closeAll();
    },
  };
}

const handlerOf = (route: RouteSpec) => (route === LAND_ROUTE ? handleLandRoute : isGoalRoute(route) ? handleGoalRoute : isAgentRoute(route) ? handleAgentRoute : handleRoute);

/** The page's origins: the address it listens on, and the other loopback names of the same port when that is loopback. */
function originsOf(host: string, port: number): string[] {
  const loopback = ['127.0.0.1', '[::1]', 'localhost'];
  return (loopback.includes(host) ? loopback : [host]).map((name) => `http://${name}:${port}`);
}

function failed(response: ServerResponse, error: unknown): void {
  if (error instanceof BadRequest) return reply(response, error.status, { error: error.message });
  if (error instanceof OpenRefused) return reply(response, error.status, { error: error.message });
  if (error instanceof GoalRefused) return reply(response, 409, { error: error.message });
  if (error instanceof AtCapacity) return reply(response, 503, { error: error.message }, { 'retry-after': String(RETRY_AFTER_SECONDS) });
  reply(response, 500, { error: error instanceof Error ? error.message : String(error) });
}

function corsHeaders(response: ServerResponse, origin: string): void {
  response.setHeader('access-control-allow-origin', origin);
  response.setHeader('vary', 'Origin');
  response.setHeader('access-control-allow-headers', 'authorization, content-type, last-event-id');
  response.setHeader('access-control-allow-methods', 'GET, POST, DELETE');
}

/** `/v1/sessions/{id}` → a pattern with named groups. */
function pathPattern(path: RouteSpec['path']): RegExp {
  const source = path.replace(/[.]/g, '\\.').replace(/\{(\w+)\}/g, '(?<$1>[^/]+)');
  return new RegExp(`^${source}$`);
}
