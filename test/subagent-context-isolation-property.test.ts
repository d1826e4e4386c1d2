/**
 * Each agent of a tree has its own context state: children's turns, whatever their output sizes and
 * however many run at once, leave the parent's requests and events exactly as they are when the
 * children do nothing but answer. (With one policy shared, a child's 40 KB output followed by the
 * parent's next turn made the parent warn that the server was cutting its prompt.)
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { withSubagents } from '../src/agents/subagents.js';
import { runChildConversation } from '../src/conversation/child-conversation.js';
import { createContextPolicy } from '../src/context/policy.js';
import type { AgentEvent } from '../src/contracts/events.js';
import { run } from '../src/core/loop.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { defineTool } from '../src/tools/define-tool.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startChatServer, type ChatRequestBody } from './support/chat-server.js';

/**
 * Output of a given size, varied enough that no tokenizer sees one repeated token. Its first call
 * also adds a tool to the parent's registry (an MCP server that started late): the parent's held
 * offer must not take it in before the parent's own next rewrite point.
 */
const emitTool = (lateInto: ToolRegistry) =>
  defineTool({
    name: 'emit',
    description: 'Prints a report of the given size.',
    parameters: z.object({ size: z.number().int().min(0) }),
    execute: async ({ size }) => {
      if (!lateInto.get('late')) lateInto.register(defineTool({ name: 'late', description: 'Came late.', parameters: z.object({}), execute: async () => 'late' }));
      return Array.from({ length: Math.ceil(size / 48) }, (_, i) => `line ${i}: the build log says module ${i % 97} is fine\n`).join('').slice(0, size);
    },
  });

const systemOf = (body: ChatRequestBody) => String(body.messages.find((message) => message.role === 'system')?.content ?? '');
const isChild = (body: ChatRequestBody) => systemOf(body).includes('You are a subagent');
const repliesIn = (body: ChatRequestBody) => body.messages.filter((message) => message.role === 'assistant').length;

interface Tree {
  /** Each child's tool outputs, in bytes, before it answers. */
  children: number[][];
  concurrency: number;
}

/** Runs the tree: the parent starts every child in one turn, then calls the calculator, then answers. */
async function runTree(tree: Tree): Promise<{ parentBodies: string[]; parentEvents: Array<Record<string, unknown>>; childRequests: number }> {
  const step = (body: ChatRequestBody) => {
    const n = repliesIn(body);
    if (isChild(body)) {
      const child = Number(/job (\d+)/.exec(String(body.messages.find((message) => message.role === 'user')?.content))?.[1]);
      const sizes = tree.children[child]!;
      return n < sizes.length ? { text: `step ${n}`, toolCalls: [{ id: `child_${child}_${n}`, name: 'emit', arguments: { size: sizes[n] } }] } : { text: `child ${child} done` };
    }
    // Ids of the parent's own: the server numbers calls across conversations.
    if (n === 0) return { toolCalls: tree.children.map((_, i) => ({ id: `lead_task_${i}`, name: 'task', arguments: { description: `job ${i}`, prompt: `job ${i}` } })) };
    if (n === 1) return { toolCalls: [{ id: 'lead_calc', name: 'calculator', arguments: { expression: '6*7' } }] };
    return { text: 'lead done' };
  };
  const server = await startChatServer(Array.from({ length: 200 }, () => step), { conversationOf: (body) => (isChild(body) ? `child ${String(body.messages[1]?.content)}` : 'lead') });
  try {
    const provider = new OpenAIProvider({ apiKey: 'test-key', baseURL: server.url });
    const tools = new ToolRegistry([calculatorTool]);
    tools.register(emitTool(tools));
    const policy = createContextPolicy({ provider, registry: tools, offerReadOutput: (tool) => tools.register(tool) });
    const events: AgentEvent[] = [];
    const result = await run(
      withSubagents(
        { provider, model: 'test-model', input: 'lead the work', tools, maxTurns: 100, prepareMessages: policy.prepareMessages, onContextOverflow: policy.onContextOverflow, contextForAgent: policy.contextForAgent },
        { concurrency: tree.concurrency, runChild: runChildConversation },
      ),
      (event) => events.push(event),
    );
    expect(result.answer).toBe('lead done');
    expect(server.violations).toEqual([]);
    const parentBodies = server.requests.filter((body) => !isChild(body)).map((body) => JSON.stringify(body));
    // The parent's own events, without clock readings; the stop's totals cover the tree, so only its reason and answer are compared.
    const parentEvents = events
      .filter((event) => event.agent === undefined)
      .map((event): Record<string, unknown> => (event.type === 'stop' ? { type: 'stop', reason: event.reason, answer: event.answer } : JSON.parse(JSON.stringify(event, (key, value: unknown) => (key === 'durationMs' ? undefined : value)))));
    // Tools that run together end in the order they finish: those events are compared as a set.
    const ends = parentEvents.filter((event) => event.type === 'tool_call_end').sort((a, b) => String(a.id).localeCompare(String(b.id)));
    return { parentBodies, parentEvents: [...parentEvents.filter((event) => event.type !== 'tool_call_end'), ...ends], childRequests: server.requests.filter(isChild).length };
  } finally {
    await server.close();
  }
}

const trees = fc.record({
  children: fc.array(fc.array(fc.oneof(fc.integer({ min: 0, max: 2_000 }), fc.integer({ min: 20_000, max: 60_000 })), { maxLength: 3 }), { minLength: 1, maxLength: 4 }),
  concurrency: fc.integer({ min: 1, max: 4 }),
});

describe('per-agent context state', () => {
  it('a child\'s 40 KB output does not make the parent warn that its prompt is being cut', async () => {
    const { parentEvents, childRequests } = await runTree({ children: [[40_000]], concurrency: 1 });
    expect(childRequests).toBe(2);
    expect(parentEvents.filter((event) => event.type === 'context_warning')).toEqual([]);
  });

  it('a child starting after a tool came late leaves the parent\'s held tool offer as it was', async () => {
    const quiet = await runTree({ children: [[], []], concurrency: 1 });
    const busy = await runTree({ children: [[100], []], concurrency: 1 });
    expect(busy.parentBodies).toEqual(quiet.parentBodies);
    expect(busy.parentBodies.at(-1)).not.toContain('"late"');
  });

  it('children\'s turns, of any size and concurrency, leave the parent\'s requests and events unchanged', async () => {
    await fc.assert(
      fc.asyncProperty(trees, async (tree) => {
        const quiet = await runTree({ children: tree.children.map(() => []), concurrency: 1 });
        const busy = await runTree(tree);
        expect(busy.childRequests).toBe(tree.children.reduce((sum, sizes) => sum + sizes.length + 1, 0));
        expect(busy.parentBodies).toEqual(quiet.parentBodies);
        expect(busy.parentEvents).toEqual(quiet.parentEvents);
      }),
      { numRuns: 12 },
    );
  }, 240_000);
});
