import type { AgentEvent } from '../contracts/events.js';
import type { ToolCall } from '../contracts/messages.js';
import type { ResolvedCall, ToolRegistry } from '../tools/registry.js';

/**
 * Each call of a reply as it runs: a call made through the offer's call tool (tool search's
 * call_tool) as the call of the tool it names, same id, or why it cannot be made; any other as it
 * is. Resolved for the whole reply before any of it runs.
 */
export async function bridgeCalls(calls: ToolCall[], registry: ToolRegistry): Promise<ResolvedCall[]> {
  return (await registry.offer?.resolveCalls?.(calls, (name) => registry.get(name))) ?? calls.map(() => ({}));
}

/** What the registry's offer did since it was last asked (the tools it deferred, each search), as this turn's events. */
export function* offerEvents(registry: ToolRegistry, turn: number): Generator<AgentEvent> {
  for (const note of registry.offer?.takeNotes?.() ?? []) yield { ...note, turn };
}
