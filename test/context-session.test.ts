import { describe, expect, it } from 'vitest';
import type { ChatRequestBody } from './support/chat-server.js';
import { ofType } from './support/harness.js';
import { isSummaryRequest, readFileTool, runContextSession, userText, wireTokens } from './support/context-session.js';
import type { Message } from '../src/contracts/messages.js';
import { capToolOutputs } from '../src/context/shrink-outputs.js';
import { SUMMARY_MARKER } from '../src/context/turn-units.js';

const SYSTEM = 'You are a careful coding agent. Follow the repository conventions in AGENTS.md.';
const EARLIER: Message[] = [
  { role: 'system', content: SYSTEM },
  { role: 'user', content: 'Before we start: the deploy key is named ORCHID-7. Remember it.' },
  { role: 'assistant', content: 'Noted: the deploy key is named ORCHID-7.', toolCalls: [] },
];
const REQUEST = 'Read files 1 to 100, then tell me which deploy key to use.';

/** The scripted summariser: echoes every line it was given that states a fact, so what survives is what it saw. */
function summarise(body: ChatRequestBody) {
  const given = userText(body).split('\n');
  const facts = [...new Set(given.filter((line) => /deploy key|named/i.test(line)))];
  return { text: `## Goal\nRead the files.\n## Facts to keep\n${facts.join('\n')}\n## Open items\nKeep reading.`, usage: { inputTokens: wireTokens(body) } };
}

describe('the context policy over a long session (real provider path)', () => {
  it('keeps 100 turns of 20 KB outputs under budget, keeps pairs intact, and carries an early fact to the end', async () => {
    let agentTurns = 0;
    const session = await runContextSession(
      (body) => {
        if (isSummaryRequest(body)) return summarise(body);
        agentTurns++;
        const usage = { inputTokens: wireTokens(body) };
        const notes = `Reading file ${agentTurns} next. So far: ${'the parser keeps its edge cases and the tests pass; '.repeat(5)}`;
        if (agentTurns <= 100) return { text: notes, toolCalls: [{ name: 'read_file', arguments: { n: agentTurns } }], usage };
        const known = /ORCHID-7/.test(userText(body));
        return { text: known ? 'Use the deploy key ORCHID-7.' : 'I no longer know the deploy key.', usage };
      },
      { tools: [readFileTool()], policy: { contextWindow: 8_192 }, agent: { messages: EARLIER, input: REQUEST, maxTurns: 120 } },
    );
    const { server, summaryServer, result, events, policy } = session;
    expect(server.violations).toEqual([]);
    expect(summaryServer.violations).toEqual([]);
    expect(result.stopReason).toBe('answered');
    expect(result.answer).toBe('Use the deploy key ORCHID-7.');

    const budget = policy.settings('test-model').inputBudget;
    const sizes = [...server.requests, ...summaryServer.requests].map(wireTokens);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(budget);

    const agentRequests = server.requests;
    const toolNames = (body: ChatRequestBody) => body.tools?.map((t) => t.function.name);
    // read_output is offered from the first request: the tool list never changes mid-run.
    for (const body of agentRequests) expect(toolNames(body)).toEqual(['read_file', 'read_output']);
    expect(agentRequests.some(isSummaryRequest)).toBe(false);
    expect(agentRequests).toHaveLength(101);
    for (const body of agentRequests) {
      expect(body.messages[0]).toEqual({ role: 'system', content: SYSTEM });
      expect(body.messages.filter((m) => m.role === 'user' && m.content === REQUEST)).toHaveLength(1);
    }
    // Old outputs became stubs long before anything had to be summarised.
    expect(agentRequests.some((body) => body.messages.some((m) => m.role === 'tool' && /^\[output of read_file elided: 20,480 chars; read_output id out_[0-9a-f]{12}\]$/.test(String(m.content))))).toBe(true);

    // The server counted what was sent (same tokenizer): nothing to warn about.
    expect(ofType(events, 'context_warning')).toEqual([]);
    const compactions = ofType(events, 'compaction');
    const summaryRequests = summaryServer.requests;
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    expect(summaryRequests).toHaveLength(compactions.length);
    for (const body of summaryRequests) expect(userText(body)).toContain('ORCHID-7');
    // At the end the fact is known only through the summaries: the message that stated it is gone.
    const last = agentRequests.at(-1)!;
    expect(last.messages.some((m) => m.content === EARLIER[1]!.content || m.content === EARLIER[2]!.content)).toBe(false);
    expect(last.messages.find((m) => String(m.content).includes('ORCHID-7'))?.content).toMatch(new RegExp(`^\\${SUMMARY_MARKER}`));
    for (const compaction of compactions) {
      expect(compaction.fallback).toBeUndefined();
      expect(compaction.tokensAfter).toBeLessThan(compaction.tokensBefore);
      expect(compaction.replaced?.from).toBe(1);
      const note = compaction.inserted?.at(-1);
      expect(note?.content).toContain(compaction.summary);
    }
  }, 60_000); // CPU-bound (100 turns of tokenizing): 3.6 s on a quiet machine, 22.8 s seen at load 12

  it('rebuilds the exact history from the compaction and rewrite events (what a session file replays)', async () => {
    let agentTurns = 0;
    const { events, result, server, summaryServer, policy } = await runContextSession(
      (body) => {
        if (isSummaryRequest(body)) return summarise(body);
        agentTurns++;
        return agentTurns <= 40 ? { toolCalls: [{ name: 'read_file', arguments: { n: agentTurns } }] } : { text: 'done' };
      },
      { tools: [readFileTool()], policy: { contextWindow: 4_096 }, agent: { messages: EARLIER, input: REQUEST, maxTurns: 60 } },
    );
    expect([...server.violations, ...summaryServer.violations]).toEqual([]);
    expect(ofType(events, 'compaction').length).toBeGreaterThanOrEqual(1);
    // Replay: the raw history from the events, each compaction spliced in where it happened.
    let history: Message[] = [...EARLIER, { role: 'user', content: REQUEST }];
    for (const event of events) {
      if (event.type === 'compaction') history.splice(event.replaced!.from, event.replaced!.count, ...event.inserted!);
      if (event.type === 'context_rewrite') for (const { at, message } of event.stubbed) history[at] = message;
      if (event.type === 'assistant_message') history.push(event.message);
      if (event.type === 'tool_call_end') history.push({ role: 'tool', toolCallId: event.id, name: event.name, content: event.output, isError: event.isError });
    }
    expect(ofType(events, 'context_rewrite').length).toBeGreaterThanOrEqual(1);
    // Capping is pure and maps messages one to one: apply it to the replay.
    const capped = capToolOutputs(history, policy.settings('test-model').maxToolResultChars);
    expect(capped.messages).toEqual(result.messages);
    expect(history.some((m) => m.role === 'tool' && m.content.length === 20_480)).toBe(true);
  });
});
