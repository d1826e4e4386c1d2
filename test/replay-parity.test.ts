/**
 * Replay drives the same conversation core as a one-shot run: the run it replays from a session
 * file sends byte-identical requests and publishes the same events (tool results, usage with the
 * cache report that the cache TTL shapes, the stop's totals and cost), from the same parts.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createContextPolicy } from '../src/context/policy.js';
import type { AgentEvent } from '../src/contracts/events.js';
import type { ConversationParts } from '../src/conversation/conversation-parts.js';
import { openConversation } from '../src/conversation/open-conversation.js';
import { agentEventOf } from '../src/conversation/prompt-events.js';
import { OpenAIProvider } from '../src/providers/openai/openai-provider.js';
import { recordedRuns } from '../src/replay/recorded-run.js';
import { replayRun } from '../src/replay/replay-run.js';
import { readSessionFile } from '../src/session/read-session.js';
import { calculatorTool } from '../src/tools/builtin/calculator.js';
import { ToolRegistry } from '../src/tools/registry.js';
import { startChatServer } from './support/chat-server.js';
import { testConversationParts } from './support/conversation-parts.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An event without its clock readings. */
const comparable = (event: AgentEvent) => JSON.parse(JSON.stringify(event, (key, value: unknown) => (key === 'durationMs' ? undefined : value))) as Record<string, unknown>;

describe('replay and the one-shot run share one core', () => {
  it('a recorded run replays with the same requests and the same events (usage, cache report, cost)', async () => {
    const server = await startChatServer([
      { toolCalls: [{ name: 'calculator', arguments: { expression: '6*7' } }] },
      { toolCalls: [{ name: 'calculator', arguments: { expression: '42+1' } }] },
      { text: 'It is 43.' },
    ]);
    const root = mkdtempSync(join(tmpdir(), 'replay-parity-'));
    cleanups.push(() => server.close(), () => rmSync(root, { recursive: true, force: true }));
    const workspace = join(root, 'ws');
    mkdirSync(workspace);
    const env = { VIBE_AGENT_HOME: join(root, 'home'), XDG_DATA_HOME: join(root, 'data'), XDG_CONFIG_HOME: join(root, 'config'), HOME: join(root, 'home') };
    const provider = new OpenAIProvider({ apiKey: 'k', baseURL: server.url });
    const tools = new ToolRegistry([calculatorTool]);
    // As the CLI's prepared run: a context policy that offers read_output from the start.
    const policy = createContextPolicy({ provider, registry: tools, offerReadOutput: (tool) => tools.register(tool) });
    const parts = (over: Partial<ConversationParts>): ConversationParts =>
      testConversationParts({ workspace, provider, tools, env, context: { prepareMessages: policy.prepareMessages, onContextOverflow: policy.onContextOverflow, contextForAgent: policy.contextForAgent }, cacheTtlMs: 3_600_000, asks: false, ...over });

    const conversation = await openConversation(parts({}));
    const live: AgentEvent[] = [];
    conversation.subscribe((event) => {
      const agentEvent = agentEventOf(event);
      if (agentEvent) live.push(agentEvent);
    });
    expect((await conversation.prompt('what is 6*7, plus one?')).answer).toBe('It is 43.');
    const path = conversation.state().path!;
    await conversation.close();
    expect(server.violations).toEqual([]);

    const runs = recordedRuns(readSessionFile(path).records);
    expect(runs).toHaveLength(1);
    const replayed: AgentEvent[] = [];
    const outcome = await replayRun(runs[0]!, { parts: parts({ session: { kind: 'none' } }), redact: (text) => text, onEvent: (event) => replayed.push(event) });
    expect(outcome).toEqual({ identical: true, requests: 3, turns: 3 });

    // Each usage event's cache report comes from a cache watch built from the same parts (an hour's TTL: no report depends on the clock).
    expect(live.filter((event) => event.type === 'usage').length).toBe(3);
    // The recording holds whole replies, so the replay streams no deltas; every other event is the same.
    const recordable = (events: AgentEvent[]) => events.filter((event) => !event.type.endsWith('_delta')).map(comparable);
    expect(live.some((event) => event.type === 'text_delta')).toBe(true);
    expect(recordable(replayed)).toEqual(recordable(live));
  });
});
