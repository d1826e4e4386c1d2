import { afterEach, expect } from 'vitest';
import { run, type AgentOptions, type RunResult } from '../../src/core/loop.js';
import type { AgentEvent } from '../../src/contracts/events.js';
import { OpenAIProvider } from '../../src/providers/openai/openai-provider.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { Tool } from '../../src/contracts/tool.js';
import { startChatServer, type ChatServer, type ServerStep } from './chat-server.js';

const open: ChatServer[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

export interface Scenario {
  server: ChatServer;
  result: RunResult;
  events: AgentEvent[];
}

/** Starts a wire-protocol server with the script, runs the agent through the real SDK against it. */
export async function runScenario(
  script: ServerStep[],
  options: Partial<AgentOptions> & { toolList?: Tool[]; stream?: boolean; allowViolations?: boolean; onEvent?: (event: AgentEvent) => void } = {},
): Promise<Scenario> {
  const server = await startChatServer(script);
  open.push(server);
  const provider = new OpenAIProvider({ apiKey: 'test-key', baseURL: server.url, stream: options.stream ?? true });
  const events: AgentEvent[] = [];
  const result = await run(
    {
      provider,
      model: 'test-model',
      input: 'task',
      tools: options.tools ?? new ToolRegistry(options.toolList ?? []),
      retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 1000 },
      ...options,
    },
    (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
  );
  if (!options.allowViolations) expect(server.violations).toEqual([]);
  return { server, result, events };
}

export function ofType<T extends AgentEvent['type']>(events: AgentEvent[], type: T): Extract<AgentEvent, { type: T }>[] {
  return events.filter((event): event is Extract<AgentEvent, { type: T }> => event.type === type);
}
