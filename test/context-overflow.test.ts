import { describeEvent } from '../src/cli/display/describe-event.js';
import { describe, expect, it } from 'vitest';
import type { Message } from '../src/contracts/messages.js';
import { DROPPED_MARKER, SUMMARY_MARKER } from '../src/context/turn-units.js';
import type { ChatRequestBody } from './support/chat-server.js';
import { ofType } from './support/harness.js';
import { isSummaryRequest, readFileTool, runContextSession, userText, wireTokens } from './support/context-session.js';

const TOO_LONG = {
  kind: 'http_error' as const,
  status: 400,
  body: { error: { message: "This model's maximum context length is 8192 tokens. However, your messages resulted in 12004 tokens.", type: 'invalid_request_error', code: 'context_length_exceeded' } },
};

function summarise(body: ChatRequestBody) {
  return { text: `## Goal\n${userText(body).split('\n').filter((line) => /goal/i.test(line)).join('\n')}\n## Open items\nContinue.` };
}

const PRIOR: Message[] = Array.from({ length: 6 }, (_, i): Message[] => [
  { role: 'user', content: `Earlier question ${i}: the goal of step ${i} is to tidy module ${i}.` },
  { role: 'assistant', content: `Answer ${i}: ${'tidied and tested; '.repeat(20)}`, toolCalls: [] },
]).flat();

describe('context overflow and truncation', () => {
  it('answers a context-length 400 with one compaction and one retry, which succeeds', async () => {
    let agentTurns = 0;
    const { server, summaryServer, result, events } = await runContextSession(
      (body) => {
        if (isSummaryRequest(body)) return summarise(body);
        agentTurns++;
        if (agentTurns <= 3) return { toolCalls: [{ name: 'read_file', arguments: { n: agentTurns } }] };
        if (agentTurns === 4) return TOO_LONG;
        return { text: 'Finished.' };
      },
      { tools: [readFileTool()], agent: { messages: PRIOR, input: 'Read three files.' } },
    );
    expect([...server.violations, ...summaryServer.violations]).toEqual([]);
    expect(result.stopReason).toBe('answered');
    expect(result.answer).toBe('Finished.');
    expect(server.requests).toHaveLength(5);
    expect(summaryServer.requests).toHaveLength(1);
    const [rejected, retried] = [server.requests[3]!, server.requests[4]!];
    expect(wireTokens(retried)).toBeLessThan(wireTokens(rejected) / 2);
    expect(retried.messages.some((m) => String(m.content).startsWith(SUMMARY_MARKER))).toBe(true);
    // The newest turn survives the compaction: its call whole, its result cut to the learned window's
    // smaller cap around the same stored output (read_output still pages all of it).
    expect(retried.messages.at(-2)).toEqual(rejected.messages.at(-2));
    const resultId = (content: unknown) => /full output saved as output id (out_[0-9a-f]{12})/.exec(String(content))?.[1];
    expect(resultId(retried.messages.at(-1)!.content)).toBe(resultId(rejected.messages.at(-1)!.content));
    expect(resultId(retried.messages.at(-1)!.content)).toBeDefined();
    expect(String(retried.messages.at(-1)!.content).length).toBeLessThan(String(rejected.messages.at(-1)!.content).length);
    expect(retried.messages.filter((m) => m.content === 'Read three files.')).toHaveLength(1);
    const warnings = ofType(events, 'context_warning');
    expect(warnings.map((w) => w.message)).toEqual([expect.stringContaining('rejected the prompt as too long; compacting and retrying once, with a 8,192-token window')]);
    expect(warnings[0]!.contextWindow).toBe(8_192);
    expect(ofType(events, 'compaction')).toHaveLength(1);
    expect(ofType(events, 'compaction')[0]!.turn).toBe(4);
  });

  it('retries only once: a second context-length error stops the run with the provider error', async () => {
    const { server, summaryServer, result } = await runContextSession((body) => (isSummaryRequest(body) ? summarise(body) : TOO_LONG), {
      agent: { messages: PRIOR, input: 'Go on.' },
    });
    expect(result.stopReason).toBe('provider_error');
    expect(result.error).toContain('maximum context length');
    expect(server.requests).toHaveLength(2);
    expect(summaryServer.requests).toHaveLength(1);
  });

  it('warns once when the server counts far fewer prompt tokens than were sent (a silently truncating local server)', async () => {
    let agentTurns = 0;
    const { server, events, result } = await runContextSession(
      () => {
        agentTurns++;
        // Like Ollama at its default context: it reports what it kept, not what it got.
        const usage = { inputTokens: 300 };
        return agentTurns <= 2 ? { toolCalls: [{ name: 'read_file', arguments: { n: agentTurns } }], usage } : { text: 'ok', usage };
      },
      { tools: [readFileTool()], providerName: 'ollama', agent: { system: `Project notes. ${'Keep functions small and tested. '.repeat(300)}` } },
    );
    expect(server.violations).toEqual([]);
    expect(result.stopReason).toBe('answered');
    const warnings = ofType(events, 'context_warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ turn: 2, reportedTokens: 300 });
    expect(warnings[0]!.estimatedTokens).toBeGreaterThan(1_000);
    // The fact names the setting; the CLI's line names its flag (the layers below the CLI know no flags).
    expect(warnings[0]).toMatchObject({ setting: 'contextWindow' });
    expect(warnings[0]!.message).toMatch(/Ollama.*context window/s);
    expect(warnings[0]!.message).not.toContain('--');
    expect(describeEvent(warnings[0]!)?.map((part) => part.text).join('')).toMatch(/context window to match\. \(--context-window\)$/);
  });

  it('drops the oldest turns with a note, and says so, when the summary request fails', async () => {
    let agentTurns = 0;
    const { server, summaryServer, result, events } = await runContextSession(
      (body) => {
        if (isSummaryRequest(body)) return { kind: 'http_error', status: 400, body: { error: { message: 'summaries are not allowed here' } } };
        agentTurns++;
        return agentTurns <= 40 ? { toolCalls: [{ name: 'read_file', arguments: { n: agentTurns } }] } : { text: 'done' };
      },
      { tools: [readFileTool()], policy: { contextWindow: 4_096 }, agent: { input: 'Read forty files.', maxTurns: 50 } },
    );
    expect([...server.violations, ...summaryServer.violations]).toEqual([]);
    expect(result.stopReason).toBe('answered');
    const compactions = ofType(events, 'compaction');
    expect(compactions.length).toBeGreaterThanOrEqual(1);
    expect(compactions[0]!.fallback).toContain('summaries are not allowed here');
    const after = server.requests[compactions[0]!.turn - 1]!;
    expect(after.messages.find((m) => String(m.content).startsWith(DROPPED_MARKER))?.content).toContain('dropped');
    expect(after.messages.filter((m) => m.content === 'Read forty files.')).toHaveLength(1);
  });
});
