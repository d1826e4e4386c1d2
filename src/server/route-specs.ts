import type { z } from 'zod';
import {
  acceptedSchema,
  approvalBodySchema,
  createSessionBodySchema,
  errorSchema,
  eventPageSchema,
  healthSchema,
  interruptedSchema,
  modeBodySchema,
  modeSchema,
  promptBodySchema,
  sessionInfoSchema,
  sessionListSchema,
} from './api-schemas.js';

export type Method = 'GET' | 'POST' | 'DELETE';

export interface Reply {
  description: string;
  schema?: z.ZodType;
  /** GET …/events: a Server-Sent Events stream besides the JSON page. */
  eventStream?: true;
}

/** One route: what the router matches and validates, and what the OpenAPI document says of it. */
export interface RouteSpec {
  operationId: string;
  method: Method;
  /** With `{name}` parameters, as OpenAPI writes them. */
  path: string;
  summary: string;
  /** Health and the document itself need no token; everything else does. */
  open?: true;
  body?: z.ZodType;
  /** Query parameters, each an integer (the only kind the routes take). */
  query?: Record<string, string>;
  replies: Record<number, Reply>;
}

const refused = {
  400: { description: 'The request is malformed; nothing was done.', schema: errorSchema },
  401: { description: 'No valid bearer token.', schema: errorSchema },
  404: { description: 'No such session.', schema: errorSchema },
};

export const ROUTES: readonly RouteSpec[] = [
  { operationId: 'openapi', method: 'GET', path: '/openapi.json', summary: 'This document (OpenAPI 3.1).', open: true, replies: { 200: { description: 'The document.' } } },
  { operationId: 'health', method: 'GET', path: '/v1/health', summary: 'Whether the server is up, and its version.', open: true, replies: { 200: { description: 'Up.', schema: healthSchema } } },
  {
    operationId: 'createSession',
    method: 'POST',
    path: '/v1/sessions',
    summary: 'Start a session in a workspace, or continue a stored one (`resume`).',
    body: createSessionBodySchema,
    replies: { 201: { description: 'Started.', schema: sessionInfoSchema }, ...refused, 503: { description: 'Too many sessions; retry after Retry-After seconds.', schema: errorSchema } },
  },
  { operationId: 'listSessions', method: 'GET', path: '/v1/sessions', summary: 'The sessions this server hosts.', replies: { 200: { description: 'The sessions.', schema: sessionListSchema }, 401: refused[401] } },
  { operationId: 'getSession', method: 'GET', path: '/v1/sessions/{id}', summary: 'One session.', replies: { 200: { description: 'The session.', schema: sessionInfoSchema }, 401: refused[401], 404: refused[404] } },
  {
    operationId: 'deleteSession',
    method: 'DELETE',
    path: '/v1/sessions/{id}',
    summary: 'Stop a session: its running turn is interrupted and its file closed (it stays stored and can be resumed).',
    replies: { 204: { description: 'Stopped.' }, 401: refused[401], 404: refused[404] },
  },
  {
    operationId: 'prompt',
    method: 'POST',
    path: '/v1/sessions/{id}/prompts',
    summary: 'Send a prompt: queued behind the running one, or steered into the running turn.',
    body: promptBodySchema,
    replies: { 202: { description: 'Accepted; its events follow on the stream.', schema: acceptedSchema }, ...refused, 409: { description: 'A land of the session is under way (POST …/land); nothing was queued.', schema: errorSchema } },
  },
  {
    operationId: 'events',
    method: 'GET',
    path: '/v1/sessions/{id}/events',
    summary: 'The session\'s numbered events after `after` (or Last-Event-ID): a Server-Sent Events stream, or with Accept: application/json one page.',
    query: { after: 'Resume after this sequence number (default 0: from the start).', limit: 'With Accept: application/json, the most events in the page (default 500).' },
    replies: {
      200: { description: 'The events: `id:` is the sequence number, `data:` an Event.', schema: eventPageSchema, eventStream: true },
      ...refused,
      503: { description: 'Too many streams open; retry after Retry-After seconds.', schema: errorSchema },
    },
  },
  {
    operationId: 'answerApproval',
    method: 'POST',
    path: '/v1/sessions/{id}/approvals/{requestId}',
    summary: 'Answer an approval request; the first answer from any client wins.',
    body: approvalBodySchema,
    replies: { 200: { description: 'This answer decided the request.', schema: acceptedSchema }, ...refused, 409: { description: 'Already answered by another client (or the turn ended).', schema: errorSchema } },
  },
  {
    operationId: 'setMode',
    method: 'POST',
    path: '/v1/sessions/{id}/mode',
    summary: 'Change the session\'s permission mode at once (its running turn\'s next call is checked in it), as Shift+Tab in an attached terminal does.',
    body: modeBodySchema,
    replies: { 200: { description: 'The mode the session is in now.', schema: modeSchema }, ...refused, 409: { description: 'The session has no permission mode to change.', schema: errorSchema } },
  },
  {
    operationId: 'interrupt',
    method: 'POST',
    path: '/v1/sessions/{id}/interrupt',
    summary: 'Stop the running turn (recorded as interrupted); queued prompts stay queued.',
    replies: { 200: { description: 'Whether a turn was running.', schema: interruptedSchema }, 401: refused[401], 404: refused[404] },
  },
];
