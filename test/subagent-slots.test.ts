import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withSubagents } from '../src/agents/subagents.js';
import { runChildConversation } from '../src/conversation/child-conversation.js';
import type { AgentEvent } from '../src/contracts/events.js';
import { run } from '../src/core/loop.js';
import type { ServerStep } from './support/chat-server.js';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startAgentServer, tasks } from './support/agent-server.js';
import { ofType } from './support/harness.js';

const usage = { inputTokens: 10, outputTokens: 5 };

/** Scripts for a full tree: every agent above `depth` starts `fanOut` children in one reply, then answers. */
function treeScripts(depth: number, fanOut: number): Record<string, ServerStep[]> {
  const scripts: Record<string, ServerStep[]> = {};
  const add = (name: string, level: number) => {
    if (level === depth) {
      scripts[name] = [{ text: `${name} done`, usage }];
      return;
    }
    const children = Array.from({ length: fanOut }, (_, i) => `${name}.${i + 1}`);
    scripts[name] = [tasks(...children.map((prompt) => ({ prompt }))), { text: `${name} done`, usage }];
    children.forEach((child) => add(child, level + 1));
  };
  add('lead', 0);
  return scripts;
}

async function runTree(depth: number, fanOut: number, concurrency: number) {
  const agents = await startAgentServer(treeScripts(depth, fanOut));
  const events: AgentEvent[] = [];
  const result = await run(
    withSubagents(
      { provider: agents.provider, model: 'gpt-4o', input: 'lead', tools: new ToolRegistry([calculatorTool]), retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 } },
      { maxDepth: depth, concurrency, runChild: runChildConversation },
    ),
    (event) => events.push(event),
  );
  expect(agents.server.violations).toEqual([]);
  expect(agents.unscripted).toEqual([]);
  return { result, events, agents };
}

describe('subagent slots never deadlock', () => {
  it('--agent-depth 2 with four children that each start a grandchild, four slots: every agent finishes', async () => {
    const { result, events, agents } = await runTree(2, 4, 4);
    expect(result.answer).toBe('lead done');
    expect(ofType(events, 'stop').filter((event) => event.agent)).toHaveLength(4 + 16);
    const results = agents.requestsOf('lead')[1]!.messages.filter((message) => message.role === 'tool').map((message) => message.content);
    expect(results).toEqual(['lead.1 done', 'lead.2 done', 'lead.3 done', 'lead.4 done']);
  }, 60_000);

  it('property: a tree of depth 2–3 whose fan-out exceeds the slots completes, every agent answering', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 2, max: 3 }), fc.integer({ min: 1, max: 2 }), fc.integer({ min: 1, max: 2 }), async (depth, concurrency, extra) => {
        const fanOut = concurrency + extra;
        if (fanOut ** depth > 30) return;
        const { result, events } = await runTree(depth, fanOut, concurrency);
        expect(result.answer).toBe('lead done');
        let agentsBelow = 0;
        for (let level = 1; level <= depth; level++) agentsBelow += fanOut ** level;
        expect(ofType(events, 'stop').filter((event) => event.agent && event.reason === 'answered')).toHaveLength(agentsBelow);
      }),
      { numRuns: 8 },
    );
  }, 120_000);
});
