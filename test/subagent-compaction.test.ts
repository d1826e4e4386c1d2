/**
 * A child that fills its context window compacts like its parent: withSubagents gives every child a
 * context policy of its own (contextForAgent), which summarises the child's own history.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { withSubagents } from '../src/agents/subagents.js';
import { runChildConversation } from '../src/conversation/child-conversation.js';
import { createContextPolicy } from '../src/context/policy.js';
import { SUMMARY_INSTRUCTIONS } from '../src/context/summary-prompt.js';
import type { AgentEvent } from '../src/contracts/events.js';
import { run } from '../src/core/loop.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startChatServer, type ChatRequestBody, type ChatServer, type ServerStep } from './support/chat-server.js';
import { ofType } from './support/harness.js';

const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const systemOf = (body: ChatRequestBody) => String(body.messages.find((message) => message.role === 'system')?.content ?? '');
/** About 600 tokens of reasoning out loud per child reply: five of them overflow 80% of a 4096-token window. */
const chatter = (i: number) => `Step ${i}: ${'the child keeps thinking aloud about the code '.repeat(60)}`;

describe('compaction inside a subagent', () => {
  it('summarises the child\'s own history when it nears the window, and the child finishes its task', async () => {
    const lead: Exclude<ServerStep, (body: ChatRequestBody) => unknown>[] = [{ toolCalls: [{ name: 'task', arguments: { description: 'dig', prompt: 'dig through the code' } }] }, { text: 'lead done' }];
    const child: Exclude<ServerStep, (body: ChatRequestBody) => unknown>[] = [
      ...Array.from({ length: 8 }, (_, i) => ({ text: chatter(i), toolCalls: [{ name: 'calculator', arguments: { expression: `${i}+1` } }] })),
      { text: 'child found it' },
    ];
    const summaries: ChatRequestBody[] = [];
    const childRequests: ChatRequestBody[] = [];
    const step = (body: ChatRequestBody): Exclude<ServerStep, (body: ChatRequestBody) => unknown> => {
      const system = systemOf(body);
      if (system === SUMMARY_INSTRUCTIONS) {
        summaries.push(body);
        return { text: '## Goal\nDig.\n## Progress\nSteps done.' };
      }
      if (system.includes('You are a subagent')) {
        childRequests.push(body);
        return child.shift() ?? { text: 'out of script' };
      }
      return lead.shift() ?? { text: 'out of script' };
    };
    const conversationOf = (body: ChatRequestBody) => {
      const system = systemOf(body);
      if (system === SUMMARY_INSTRUCTIONS) return `summary: ${String(body.messages.at(-1)?.content)}`;
      return system.includes('You are a subagent') ? 'child' : 'lead';
    };
    const server = await startChatServer(Array.from({ length: 30 }, () => step), { conversationOf });
    servers.push(server);
    const provider = new OpenAIProvider({ apiKey: 'test-key', baseURL: server.url });
    const tools = new ToolRegistry([calculatorTool]);
    const policy = createContextPolicy({ provider, registry: tools, contextWindow: 4096 });
    const events: AgentEvent[] = [];
    const result = await run(
      withSubagents({ provider, model: 'test-model', input: 'lead the work', tools, maxTurns: 20, prepareMessages: policy.prepareMessages, onContextOverflow: policy.onContextOverflow, contextForAgent: policy.contextForAgent }, { runChild: runChildConversation }),
      (event) => events.push(event),
    );

    expect(result.answer).toBe('lead done');
    expect(server.violations).toEqual([]);
    // The child's history was summarised (the parent's never grew that large).
    const compactions = ofType(events, 'compaction');
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    expect(compactions.every((event) => event.agent === 'main/task-1')).toBe(true);
    expect(summaries.length).toBe(compactions.length);
    expect(JSON.stringify(summaries[0]!.messages)).toContain('the child keeps thinking aloud');
    // After the compaction the child's requests carry the summary, not every step it took.
    const last = JSON.stringify(childRequests.at(-1)!.messages);
    expect(last).toContain('Steps done.');
    expect(last).not.toContain('Step 0:');
    // The child's answer is the parent's tool result.
    const leadLast = server.requests.filter((body) => !systemOf(body).includes('You are a subagent') && systemOf(body) !== SUMMARY_INSTRUCTIONS).at(-1)!;
    expect(leadLast.messages.find((message) => message.role === 'tool')?.content).toBe('child found it');
  });
});
