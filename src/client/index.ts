// `vibe-agent/client`: a typed client for `vibe-agent serve` (see docs/server.md).
export { createVibeClient, type ClientOptions, type ServerEvent, type SessionInfo, type VibeClient } from './create-client.js';
export { readEventPage, type EventPage } from './event-page.js';
export { readEvents, EventStreamRefused, type ReadEventsOptions } from './read-events.js';
export type { components, paths, operations } from './api-types.js';
