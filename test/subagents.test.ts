import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BUILTIN_AGENTS, type AgentDefinition } from '../src/agents/agent-definition.js';
import { withSubagents, type SubagentOptions } from '../src/agents/subagents.js';
import type { AgentEvent } from '../src/contracts/events.js';
import { runChildConversation } from '../src/conversation/child-conversation.js';
import { run, type AgentOptions } from '../src/core/loop.js';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startAgentServer, tasks, type AgentServer } from './support/agent-server.js';
import { ofType } from './support/harness.js';

// gpt-4o: $2.50 per 1M input, $10 per 1M output, so each reply below costs $0.035.
const usage = { inputTokens: 10_000, outputTokens: 1_000 };
const COST = 0.035;
const calc = { toolCalls: [{ name: 'calculator', arguments: { expression: '1+1' } }], usage };

/** A read-only tool that returns once `parties` calls of the same round have arrived: the children are provably running together. */
function barrierTool(parties: number) {
  const rounds = new Map<number, { arrived: number; open: Promise<void>; release: () => void }>();
  return defineTool({
    name: 'barrier',
    description: 'Waits for the others.',
    parameters: z.object({ round: z.number() }),
    readOnly: true,
    timeoutMs: 10_000,
    async execute({ round }) {
      let state = rounds.get(round);
      if (!state) {
        let release!: () => void;
        const open = new Promise<void>((resolve) => (release = resolve));
        rounds.set(round, (state = { arrived: 0, open, release }));
      }
      if (++state.arrived === parties) state.release();
      await state.open;
      return `round ${round}: all ${parties} here`;
    },
  });
}
const noteTool = defineTool({ name: 'note', description: 'Writes a note.', parameters: z.object({}), needsApproval: false, execute: async () => 'noted' });
const barrier = (round: number) => ({ toolCalls: [{ name: 'barrier', arguments: { round } }], usage });

async function runTree(agents: AgentServer, options: Partial<AgentOptions> & { tools: ToolRegistry }, subagents: Partial<SubagentOptions> = {}) {
  const events: AgentEvent[] = [];
  const result = await run(
    withSubagents({ provider: agents.provider, model: 'gpt-4o', input: 'lead', retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 }, ...options }, { runChild: runChildConversation, ...subagents }),
    (event) => events.push(event),
  );
  expect(agents.server.violations).toEqual([]);
  return { result, events };
}

describe('subagents', () => {
  it('runs three children in parallel, returns their answers in call order and passes their events on with their paths', async () => {
    const agents = await startAgentServer({
      lead: [tasks({ prompt: 'child A' }, { prompt: 'child B', agent: 'explorer' }, { prompt: 'child C' }), { text: 'all done', usage }],
      'child A': [barrier(1), { text: 'A found 1', usage }],
      'child B': [barrier(1), { text: 'B found 2', usage }],
      'child C': [barrier(1), { text: 'C found 3', usage }],
    });
    const { result, events } = await runTree(agents, { tools: new ToolRegistry([barrierTool(3), calculatorTool, noteTool]) });

    expect(result.answer).toBe('all done');
    const results = agents.requestsOf('lead')[1]!.messages.filter((message) => message.role === 'tool').map((message) => message.content);
    expect(results).toEqual(['A found 1', 'B found 2', 'C found 3']);
    const childStops = ofType(events, 'stop').filter((event) => event.agent);
    expect(childStops.map((event) => event.agent).sort()).toEqual(['main/task-1', 'main/task-2', 'main/task-3']);
    // Each child's events came through, tagged, before the parent's result for its call.
    const firstEnd = events.findIndex((event) => event.type === 'tool_call_end' && !event.agent && event.name === 'task');
    expect(events.slice(0, firstEnd).filter((event) => event.type === 'run_start' && event.agent)).toHaveLength(3);
    // The explorer got only read-only tools; nobody below the top got `task` (depth 1).
    const toolsOf = (name: string) => agents.requestsOf(name)[0]!.tools!.map((tool) => tool.function.name);
    expect(toolsOf('child B')).toEqual(['barrier', 'calculator']);
    expect(toolsOf('child A')).toEqual(['barrier', 'calculator', 'note']);
    expect(toolsOf('lead')).toContain('task');
    // Usage rolls up once: the parent's stop is the tree's total, with who spent what.
    const stop = ofType(events, 'stop').find((event) => !event.agent)!;
    expect(stop.cost).toBeCloseTo(8 * COST, 10);
    expect(stop.usage.inputTokens).toBe(8 * usage.inputTokens);
    expect(stop.agents?.map((spend) => [spend.agent, spend.turns])).toEqual([
      ['main', 2],
      ['main/task-1', 2],
      ['main/task-2', 2],
      ['main/task-3', 2],
    ]);
  });

  it('stops every agent once the tree budget is spent: no request after the limit, each child returns a hand-off', async () => {
    const agents = await startAgentServer({
      lead: [tasks({ prompt: 'child A' }, { prompt: 'child B' }, { prompt: 'child C' }), { text: 'never sent', usage }],
      'child A': [barrier(1), barrier(2), calc],
      'child B': [barrier(1), barrier(2), calc],
      'child C': [barrier(1), barrier(2), calc],
    });
    // $0.15: the parent and the children's first requests ($0.14) leave room; their second round crosses it.
    const { result, events } = await runTree(agents, { tools: new ToolRegistry([barrierTool(3), calculatorTool]), maxCost: 0.15 });

    expect(agents.server.requests).toHaveLength(7);
    expect(agents.unscripted).toEqual([]);
    expect(result.stopReason).toBe('cost_limit');
    expect(result.cost).toBeCloseTo(7 * COST, 10);
    const childResults = ofType(events, 'tool_call_end').filter((event) => !event.agent && event.name === 'task');
    expect(childResults).toHaveLength(3);
    for (const child of childResults) {
      expect(child.output).toMatch(/stopped before finishing \(cost_limit: the agent tree \(main\) spent \$0\.2450 of the \$0\.15 limit\) after 2 turns\. Hand-off:/);
      expect(child.output).toMatch(/Tool calls made: barrier, barrier/);
    }
    expect(result.agents?.map((spend) => spend.turns)).toEqual([1, 2, 2, 2]);
  });

  it('gives a child no more than is left, and money reserved for a running child to nobody else', async () => {
    const pricey: AgentDefinition = { name: 'pricey', description: 'spends', prompt: 'You spend.', maxCost: 0.1, source: 'test' };
    const agents = await startAgentServer({
      lead: [tasks({ prompt: 'child A', agent: 'pricey' }, { prompt: 'child B', agent: 'pricey' }), { text: 'done', usage }],
      'child A': [{ text: 'A done', usage }],
      'child B': [],
    });
    // $0.135: the parent's first request leaves $0.10, all of it reserved for A while A runs, so B gets nothing.
    const { result } = await runTree(agents, { tools: new ToolRegistry([calculatorTool]), maxCost: 0.135 }, { agents: [...BUILTIN_AGENTS, pricey] });
    expect(agents.requestsOf('child A')[0]!.messages[0]!.content).toMatch(/^You spend\./);
    expect(agents.requestsOf('child B')).toHaveLength(0);
    const [a, b] = agents.requestsOf('lead')[1]!.messages.filter((message) => message.role === 'tool').map((message) => String(message.content));
    expect(a).toBe('A done');
    expect(b).toMatch(/^Subagent main\/task-2 stopped before finishing \(cost_limit: this agent spent \$0\.0000 of the \$0 limit\) after 0 turns/);
    // A spent its $0.035, less than reserved: the rest was free again for the parent's answer.
    expect(result.answer).toBe('done');
  });

  it("makes a child's provider error the parent's tool error, and the parent goes on", async () => {
    const agents = await startAgentServer({
      lead: [tasks({ prompt: 'child A' }), { text: 'I will do it myself', usage }],
      'child A': [{ kind: 'http_error', status: 400, body: { error: { message: 'model not found' } } }],
    });
    const { result, events } = await runTree(agents, { tools: new ToolRegistry([calculatorTool]) });
    const end = ofType(events, 'tool_call_end').find((event) => !event.agent)!;
    expect(end.status).toBe('error');
    expect(end.output).toMatch(/^Subagent main\/task-1 failed \(provider_error: .*model not found/);
    expect(agents.requestsOf('lead')[1]!.messages.at(-1)).toMatchObject({ role: 'tool', content: end.output });
    expect(result.answer).toBe('I will do it myself');
  });

  it('keeps children from starting children beyond the depth limit', async () => {
    const deep = await startAgentServer({
      lead: [tasks({ prompt: 'child A' }), { text: 'ok', usage }],
      'child A': [tasks({ prompt: 'grandchild' }), { text: 'A ok', usage }],
      grandchild: [{ text: 'deep', usage }],
    });
    const { events } = await runTree(deep, { tools: new ToolRegistry([calculatorTool]) }, { maxDepth: 2 });
    expect(deep.requestsOf('grandchild')[0]!.tools!.map((tool) => tool.function.name)).toEqual(['calculator']);
    expect(ofType(events, 'stop').map((event) => event.agent)).toEqual(['main/task-1/task-1', 'main/task-1', undefined]);

    const shallow = await startAgentServer({
      lead: [tasks({ prompt: 'child A' }), { text: 'ok', usage }],
      'child A': [tasks({ prompt: 'grandchild' }), { text: 'A could not delegate', usage }],
    });
    const { events: shallowEvents } = await runTree(shallow, { tools: new ToolRegistry([calculatorTool]) });
    expect(shallow.requestsOf('child A')[0]!.tools!.map((tool) => tool.function.name)).toEqual(['calculator']);
    const refused = ofType(shallowEvents, 'tool_call_end').find((event) => event.agent === 'main/task-1')!;
    expect(refused.output).toMatch(/^Unknown tool "task"/);
  });

  it('cancels running children when the run is aborted, and sends nothing after', async () => {
    const agents = await startAgentServer({
      lead: [tasks({ prompt: 'child A' }, { prompt: 'child B' })],
      'child A': [{ kind: 'silent' }],
      'child B': [{ kind: 'silent' }],
    });
    const controller = new AbortController();
    const running = runTree(agents, { tools: new ToolRegistry([calculatorTool]), signal: controller.signal });
    await agents.server.waitForRequest(3);
    controller.abort();
    const { result, events } = await running;
    expect(result.stopReason).toBe('aborted');
    expect(agents.server.requests).toHaveLength(3);
    const ends = ofType(events, 'tool_call_end').filter((event) => !event.agent);
    expect(ends.map((event) => event.status)).toEqual(['error', 'error']);
    expect(ends.every((event) => /cancelled/.test(event.output))).toBe(true);
  });
});
