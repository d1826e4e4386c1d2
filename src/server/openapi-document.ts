import { z } from 'zod';
import { apiSchemas } from './api-schemas.js';
import { ROUTES, type RouteSpec } from './route-specs.js';
import { GOAL_ROUTES } from './goal-route-specs.js';
import { LAND_ROUTE } from './land-route-spec.js';
import { AGENT_ROUTES } from './agents-route-spec.js';

const REF = '#/components/schemas/';

/** The OpenAPI 3.1 document, generated from the route table and the schemas the routes validate with. */
export function openApiDocument(version: string): Record<string, unknown> {
  const { schemas } = z.toJSONSchema(apiSchemas, { io: 'input', uri: (id) => `${REF}${id}` });
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of [...ROUTES, ...GOAL_ROUTES, LAND_ROUTE, ...AGENT_ROUTES]) (paths[route.path] ??= {})[route.method.toLowerCase()] = operation(route);
  return {
    openapi: '3.1.0',
    info: { title: 'Vibe Agent server', version, description: 'Sessions of the Vibe Agent coding agent over HTTP: see docs/server.md.' },
    servers: [{ url: 'http://127.0.0.1:4317' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'The token `vibe-agent serve` printed (or its --token-file).' } },
      schemas: Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, plain(schema)])),
    },
  };
}

function operation(route: RouteSpec): Record<string, unknown> {
  const parameters = [
    ...[...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
    ...Object.entries(route.query ?? {}).map(([name, description]) => ({ name, in: 'query', required: false, description, schema: { type: 'integer', minimum: 0 } })),
    ...(route.operationId === 'events' ? [{ name: 'Last-Event-ID', in: 'header', required: false, description: 'Resume after this sequence number (an EventSource sends it when it reconnects).', schema: { type: 'string' } }] : []),
  ];
  const responses = Object.fromEntries(
    Object.entries(route.replies).map(([status, reply]) => {
      const content: Record<string, unknown> = {};
      if (reply.schema) content['application/json'] = { schema: schemaOf(reply.schema) };
      if (reply.eventStream) content['text/event-stream'] = { schema: { type: 'string', description: 'id: SEQ, event: the event type, data: an Event as JSON' } };
      if (route.operationId === 'openapi') content['application/json'] = { schema: { type: 'object' } };
      return [status, { description: reply.description, ...(Object.keys(content).length ? { content } : {}) }];
    }),
  );
  return {
    operationId: route.operationId,
    summary: route.summary,
    ...(route.open ? { security: [] } : {}),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body ? { requestBody: { required: true, content: { 'application/json': { schema: schemaOf(route.body) } } } } : {}),
    responses,
  };
}

function schemaOf(schema: z.ZodType): Record<string, unknown> {
  const id = apiSchemas.get(schema)?.id;
  if (id) return { $ref: `${REF}${id}` };
  return plain(z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>);
}

/** A component without the `$schema`/`$id` keys a standalone JSON Schema carries. */
function plain(schema: Record<string, unknown>): Record<string, unknown> {
  const { $schema: _schema, $id: _id, ...rest } = schema;
  return rest;
}
