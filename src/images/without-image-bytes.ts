import type { AgentEvent } from '../contracts/events.js';

/** An event with its images' base64 left out (everything else about them kept), for printed output. */
export function withoutImageBytes(event: AgentEvent): AgentEvent {
  if (event.type === 'run_start' && event.images?.length) return { ...event, images: event.images.map(({ data: _data, ...rest }) => ({ ...rest, data: '' })) };
  if (event.type === 'tool_call_end' && event.images?.length) return { ...event, images: event.images.map(({ data: _data, ...rest }) => ({ ...rest, data: '' })) };
  return event;
}
