import type { components } from './api-types.js';
import type { VibeClient } from './create-client.js';

export type EventPage = components['schemas']['EventPage'];

/**
 * One page of a session's stored events after `after` (GET …/events with Accept: application/json):
 * `next` is the `after` of the following page, `more` says whether there is one.
 */
export async function readEventPage(client: VibeClient, sessionId: string, after = 0, limit?: number): Promise<EventPage> {
  const { data, error, response } = await client.GET('/v1/sessions/{id}/events', {
    params: { path: { id: sessionId }, query: { after, ...(limit !== undefined ? { limit } : {}) } },
    headers: { accept: 'application/json' },
  });
  if (error || typeof data !== 'object' || data === null) throw new Error(`the events of session ${sessionId} could not be read (${response.status}): ${JSON.stringify(error)}`);
  return data;
}
