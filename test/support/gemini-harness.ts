import { afterEach, expect } from 'vitest';
import { run, type AgentOptions, type RunResult } from '../../src/core/loop.js';
import type { AgentEvent } from '../../src/contracts/events.js';
import { GoogleProvider, type GoogleProviderOptions } from '../../src/providers/google/google-provider.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import type { Tool } from '../../src/contracts/tool.js';
import { startGeminiServer, type GeminiServer, type GeminiStep } from './gemini-server.js';

const open: GeminiServer[] = [];

afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

export interface GeminiScenario {
  server: GeminiServer;
  result: RunResult;
  events: AgentEvent[];
}

/** Starts a Gemini wire server with the script and runs the agent through the real SDK against it. */
export async function runGeminiScenario(
  script: GeminiStep[],
  options: Partial<AgentOptions> & { toolList?: Tool[]; providerOptions?: Partial<GoogleProviderOptions>; allowViolations?: boolean } = {},
): Promise<GeminiScenario> {
  const server = await startGeminiServer(script);
  open.push(server);
  const provider = new GoogleProvider({ apiKey: 'test-gemini-key', baseURL: server.url, ...options.providerOptions });
  const events: AgentEvent[] = [];
  const result = await run(
    {
      provider,
      model: 'gemini-2.5-flash',
      input: 'task',
      tools: options.tools ?? new ToolRegistry(options.toolList ?? []),
      retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 1000 },
      ...options,
    },
    (event) => events.push(event),
  );
  if (!options.allowViolations) expect(server.violations).toEqual([]);
  return { server, result, events };
}
