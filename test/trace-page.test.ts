import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseSessionText, readSessionFile } from '../src/session/read-session.js';
import { rebuildRequests } from '../src/session/request-record.js';
import { buildTrace } from '../src/trace/build-trace.js';
import { tracePageHtml } from '../src/trace/page-html.js';
import { jsonForScript } from '../src/trace/script-json.js';
import type { TraceData } from '../src/trace/trace-data.js';
import { chartAssets } from '../src/trace/uplot-assets.js';
import { join } from 'node:path';
import { startAgentServer, tasks } from './support/agent-server.js';
import { CLI_SESSION_TIMEOUT_MS, cliHome } from './support/cli-process.js';
import { recordTraceSession, TRACE_SECRET, type RecordedSession } from './support/trace-recording.js';

let recorded: RecordedSession;
let records: Array<Record<string, any>>;
beforeAll(async () => {
  recorded = await recordTraceSession();
  expect(recorded.ran.code, recorded.ran.stderr).toBe(0);
  records = readFileSync(recorded.path, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
}, CLI_SESSION_TIMEOUT_MS);
afterAll(() => recorded?.cleanup());

const ofType = (type: string) => records.filter((record) => record.type === type);
const ids = (runs: Array<[number, number]>) => runs.flatMap(([first, count]) => Array.from({ length: count }, (_, i) => first + i));

describe('the trace data model, from a session recorded by the CLI', () => {
  it('has each turn with its request, usage, reply, tool calls, retry and compactions', async () => {
    const data = await buildTrace(readSessionFile(recorded.path), { file: recorded.path });
    expect(data.turns.map((turn) => turn.seq)).toEqual([1, 2, 3, 4]);
    const [first, second, third, fourth] = data.turns as [TraceData['turns'][0], TraceData['turns'][0], TraceData['turns'][0], TraceData['turns'][0]];

    // Turn 1: the system prompt and the user's input; two reads, one failing.
    expect(ids(first.request.ids).map((id) => data.messages[id]!.role)).toEqual(['system', 'user']);
    expect(data.messages[ids(first.request.ids)[1]!]!.content).toBe('Read the notes and tell me about them');
    expect(first.tools.map((call) => [call.id, call.status, call.permission])).toEqual([['call_read', 'ok', 'allowed'], ['call_missing', 'error', 'allowed']]);
    // Results and reply texts are stored once, in the messages, and pointed at.
    expect(first.tools[1]!.output).toBeUndefined();
    expect(data.messages[first.tools[1]!.outputId!]).toMatchObject({ role: 'tool', isError: true, content: expect.stringContaining('missing.txt does not exist') });
    expect(first.tools[0]!.arguments).toBe('{"path":"notes.txt"}');
    expect(typeof first.tools[0]!.durationMs).toBe('number');

    // Usage as reported: the usage records of the turns' own requests.
    const usages = ofType('usage');
    expect(first.usage).toEqual(usages[0]!.usage);
    // With each request's prompt-cache split, as the usage record carries it.
    expect(first.cache).toEqual(usages[0]!.cache);
    expect(first.cache!.read + first.cache!.written + first.cache!.uncached).toBe(first.usage!.inputTokens);
    expect(first.usage!.cachedInputTokens).toBeGreaterThan(0);

    // Turn 2 was retried after the 429; its request holds turn 1's messages.
    expect(second.retries).toEqual([expect.objectContaining({ attempt: 1, error: expect.stringContaining('429') })]);
    expect(second.request.count).toBe(5);

    // Turn 3 began with a compaction: the replaced messages are gone from its request, the inserted ones are in it.
    const compactions = ofType('compaction');
    expect(compactions).toHaveLength(2);
    const compaction = third.compactions[0]!;
    expect([compaction.tokensBefore, compaction.tokensAfter]).toEqual([compactions[0]!.tokensBefore, compactions[0]!.tokensAfter]);
    expect(compaction.replaced).toHaveLength(compactions[0]!.replaced.count);
    const sent = ids(third.request.ids);
    // (The compaction keeps the user's input: it is both replaced and inserted.)
    for (const id of compaction.replaced) if (!compaction.inserted.includes(id)) expect(sent).not.toContain(id);
    for (const id of compaction.inserted) expect(sent).toContain(id);
    expect(data.messages[compaction.inserted[0]!]!.content).toBe(compactions[0]!.inserted[0].content);
    // The summary request's usage is billed to the turn, apart from the turn's own request.
    expect(third.extraUsage).toBeDefined();
    expect(fourth.compactions).toHaveLength(1);
    expect(data.messages[fourth.reply!.messageId!]!.content).toContain('three planets');
    expect(fourth.stop).toEqual({ reason: 'answered' });

    // Totals agree with what the run itself reported at its stop.
    const stop = ofType('stop')[0]!;
    expect(data.totals.inputTokens).toBe(stop.usage.inputTokens);
    expect(data.totals.cachedInputTokens).toBe(stop.usage.cachedInputTokens);
    expect(data.totals.outputTokens).toBe(stop.usage.outputTokens);
    expect(data.totals.cost).toBeCloseTo(stop.cost, 10);
    expect(data.totals).toMatchObject({ turns: 4, runs: 1, toolCalls: 4, toolErrors: 1, retries: 1, compactions: 2 });
    // Per-message token counts add up to the request's.
    expect(ids(second.request.ids).reduce((sum, id) => sum + data.messages[id]!.tokens, 3)).toBe(second.request.tokens);
    expect(data.contextWindow).toBe(128_000);
    expect(data.skipped.count).toBe(0);
  });

  it('shows each request as it was sent (from the request records): outputs the context policy capped are capped there, whole in the tool call', async () => {
    const data = await buildTrace(readSessionFile(recorded.path), { file: recorded.path });
    expect(data.requests).toBe('recorded');
    expect(data.turns.every((turn) => turn.request.sent === true)).toBe(true);
    const second = data.turns[1]!;
    // The system prompt, the input, turn 1's reply and both results, and the tool schemas offered.
    expect(second.request.count).toBe(5);
    expect(data.turns[0]!.request.tools).toBe(ofType('run_start')[0]!.tools.length);
    // Once an output was saved aside, read_output is offered too: the count is the request's own.
    const sentTools = rebuildRequests(records as never).requests[1]!.request.tools.map((tool) => tool.name);
    expect(sentTools).toContain('read_output');
    expect(second.request.tools).toBe(sentTools.length);
    const sentMessages = ids(second.request.ids).map((id) => data.messages[id]!);
    expect(sentMessages[0]).toMatchObject({ role: 'system', content: ofType('system_prompt')[0]!.content });
    // notes.txt's result went to the model capped (the 4,096-token window), and the page shows that text.
    const whole = data.messages[data.turns[0]!.tools[0]!.outputId!]!.content;
    expect(whole).toContain('notes line 50:');
    const capped = sentMessages.find((message) => message.role === 'tool' && message.content.startsWith(whole.slice(0, 200)))!;
    expect(capped.content).toMatch(/omitted of [\d,]+; full output saved as output id out_[0-9a-f]{12}/);
    expect(capped.content).not.toContain('notes line 50:');
    expect(capped.content.length).toBeLessThan(whole.length / 2);
    // Each message has its own token count, and they add up to the request's.
    expect(capped.tokens).toBeLessThan(data.messages[data.turns[0]!.tools[0]!.outputId!]!.tokens / 2);
    expect(sentMessages.reduce((sum, message) => sum + message.tokens, 3)).toBe(second.request.tokens);
    // Stored once: the messages the request shares with the history are the history's own entries.
    expect(ids(second.request.ids).slice(0, 3)).toEqual(ids(data.turns[0]!.request.ids).concat([data.turns[0]!.reply?.messageId ?? -1]));
    const html = tracePageHtml(data, chartAssets());
    expect(html).toContain('as sent (from the request records)');
  });

  it('falls back to rebuilding the requests from the history for a file without request records, and says so', async () => {
    const older = readFileSync(recorded.path, 'utf8').split('\n').filter((line) => !line.includes('"type":"request"')).join('\n').replace('"version":2', '"version":1');
    const data = await buildTrace(parseSessionText(older), { file: 'older.jsonl' });
    expect(data.requests).toBe('rebuilt');
    expect(data.turns.some((turn) => turn.request.sent)).toBe(false);
    expect(data.skipped.count).toBe(0);
    // The rebuilt request holds the result whole: the cap is not in the history records.
    const second = ids(data.turns[1]!.request.ids).map((id) => data.messages[id]!);
    expect(second.some((message) => message.role === 'tool' && message.content.includes('notes line 50:'))).toBe(true);
    expect(tracePageHtml(data, chartAssets())).toContain('rebuilt from the history (this session has no request records)');
  });

  it('uses --context-window over the model table, and a provider-revealed window over both when no flag is given', async () => {
    const flagged = await buildTrace(readSessionFile(recorded.path), { file: recorded.path, contextWindow: 4096 });
    expect([flagged.contextWindow, flagged.contextWindowSource]).toEqual([4096, '--context-window']);
    const warned = `${readFileSync(recorded.path, 'utf8')}${JSON.stringify({ type: 'context_warning', turn: 4, message: 'smaller', contextWindow: 8192 })}\n`;
    const fromWarning = await buildTrace(parseSessionText(warned), { file: 'x' });
    expect(fromWarning.contextWindow).toBe(8192);
    const unknown = await buildTrace(parseSessionText(warned.replaceAll('"model":"gpt-4o"', '"model":"my-local-thing"').replace(/.*"context_warning".*\n$/, '')), { file: 'x' });
    expect([unknown.contextWindow, unknown.contextWindowSource]).toEqual([undefined, 'unknown']);
  });

  it('shows what a torn or corrupt file still holds and counts what was skipped; unknown record types are passed over', async () => {
    const copy = `${recorded.path}.torn.jsonl`;
    const lines = readFileSync(recorded.path, 'utf8').split('\n');
    lines.splice(5, 0, '{"type":"usage","turn":1,"us', 'not json at all', JSON.stringify({ type: 'request', turn: 1, body: { anything: true } }));
    writeFileSync(copy, `${lines.join('\n')}{"type":"turn_start","tu`);
    const data = await buildTrace(readSessionFile(copy), { file: copy });
    // The stray request record (no digest, no messages) is the fourth: refused as the file is read.
    expect(data.skipped.count).toBe(4);
    expect(data.skipped.notes.join('\n')).toMatch(/line 8 is not a valid record \(a "request" record whose digest is missing, expected text\)/);
    expect(data.skipped.notes.join('\n')).toMatch(/line 6 is not a valid record/);
    expect(data.skipped.notes.join('\n')).toMatch(/line 7 is not a valid record/);
    expect(data.skipped.notes.join('\n')).toMatch(/unfinished last line/);
    expect(data.turns).toHaveLength(4);
    expect(data.totals.toolCalls).toBe(4);
  });

  it('nests a subagent\'s turns under the task call that started it', async () => {
    const session = [
      { type: 'session', version: 1, id: 's', workspace: '/w', createdAt: '2026-01-01T00:00:00Z' },
      { type: 'run_start', provider: 'openai', model: 'gpt-4o', tools: ['task'], input: 'delegate' },
      { type: 'turn_start', turn: 1 },
      { type: 'assistant_message', turn: 1, message: { role: 'assistant', content: '', toolCalls: [{ id: 't1', name: 'task', arguments: '{"prompt":"look"}' }] }, finishReason: 'tool_calls' },
      { type: 'tool_call_start', turn: 1, call: { id: 't1', name: 'task', arguments: '{"prompt":"look"}' } },
      { type: 'run_start', provider: 'openai', model: 'gpt-4o', tools: ['read_file'], input: 'look', agent: 'main/task-1' },
      { type: 'turn_start', turn: 1, agent: 'main/task-1' },
      { type: 'usage', turn: 1, usage: { inputTokens: 50, outputTokens: 5, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 }, agent: 'main/task-1' },
      { type: 'assistant_message', turn: 1, message: { role: 'assistant', content: 'found it', toolCalls: [] }, finishReason: 'stop', agent: 'main/task-1' },
      { type: 'turn_end', turn: 1, fromEvents: 1, messages: [], agent: 'main/task-1' },
      { type: 'stop', reason: 'answered', answer: 'found it', turns: 1, usage: {}, agent: 'main/task-1' },
      { type: 'tool_call_end', turn: 1, id: 't1', name: 'task', status: 'ok', isError: false, output: 'found it', durationMs: 9 },
      { type: 'turn_end', turn: 1, fromEvents: 2, messages: [] },
      { type: 'turn_start', turn: 2 },
      { type: 'tool_call_end', turn: 2, id: 'x', name: 'bash', status: 'denied', isError: true, output: 'denied by the user', durationMs: 0 },
    ];
    const data = await buildTrace(parseSessionText(session.map((r) => JSON.stringify(r)).join('\n') + '\n'), { file: 'x' });
    expect(data.turns.map((turn) => turn.agent)).toEqual(['main', 'main']);
    const task = data.turns[0]!.tools[0]!;
    expect(task.subagent?.agent).toBe('main/task-1');
    expect(task.subagent?.turns).toHaveLength(1);
    expect(data.messages[task.subagent!.turns[0]!.reply!.messageId!]!.content).toBe('found it');
    expect(data.messages[ids(task.subagent!.turns[0]!.request.ids)[0]!]!.content).toBe('look');
    expect(data.turns[1]!.tools[0]).toMatchObject({ status: 'denied', permission: 'denied' });
    expect(data.turns[1]!.complete).toBe(false);
    expect(data.totals).toMatchObject({ turns: 2, subagentTurns: 1, inputTokens: 50, toolErrors: 1 });
  });
});

describe('a subagent session recorded by the CLI', () => {
  it('nests the child\'s turns, requests and tool calls under the task call that ran it', async () => {
    const agents = await startAgentServer({
      lead: [tasks({ prompt: 'count the notes' }), { text: 'The child counted 2 notes.' }],
      'count the notes': [{ toolCalls: [{ id: 'child_list', name: 'list_files', arguments: { path: '.' } }] }, { text: 'There are 2 notes.' }],
    });
    const home = cliHome();
    try {
      writeFileSync(join(home.workspace, 'a.txt'), 'note a\n');
      writeFileSync(join(home.workspace, 'b.txt'), 'note b\n');
      const ran = await home.run(['--tools', 'coding,agents', 'lead'], { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: agents.server.url, VIBE_MODEL: 'gpt-4o' });
      expect(ran.code, ran.stderr).toBe(0);
      expect(agents.unscripted).toEqual([]);
      const path = home.sessionPath(home.sessionFiles()[0]!);
      expect(readFileSync(path, 'utf8')).toContain('"agent":"main/task-1"');
      const data = await buildTrace(readSessionFile(path), { file: path });
      expect(data.skipped).toEqual({ count: 0, notes: [] });
      // The main agent's two turns; the child's are not among them.
      expect(data.turns.map((turn) => [turn.agent, turn.seq])).toEqual([['main', 1], ['main', 2]]);
      expect(data.turns.every((turn) => turn.request.sent)).toBe(true);
      const task = data.turns[0]!.tools[0]!;
      expect([task.name, task.status]).toEqual(['task', 'ok']);
      expect(task.subagent?.agent).toBe('main/task-1');
      const child = task.subagent!.turns;
      expect(child.map((turn) => [turn.agent, turn.turn, turn.complete])).toEqual([['main/task-1', 1, true], ['main/task-1', 2, true]]);
      // The child's requests are rebuilt from its own records: its prompt, then its call and result.
      const firstSent = ids(child[0]!.request.ids).map((id) => data.messages[id]!);
      expect(firstSent.at(-1)).toMatchObject({ role: 'user', content: 'count the notes' });
      expect(child[0]!.request.sent).toBeUndefined();
      expect(child[0]!.tools.map((call) => [call.name, call.status])).toEqual([['list_files', 'ok']]);
      const listed = data.messages[child[0]!.tools[0]!.outputId!]!.content;
      expect(listed).toContain('a.txt');
      expect(ids(child[1]!.request.ids).map((id) => data.messages[id]!.role).slice(-2)).toEqual(['assistant', 'tool']);
      // Stored once, like the main agent's: the reply and the result point at the messages.
      expect(data.messages[child[1]!.reply!.messageId!]!.content).toBe('There are 2 notes.');
      expect([child[1]!.reply!.text, child[0]!.tools[0]!.output]).toEqual([undefined, undefined]);
      expect(data.totals).toMatchObject({ turns: 2, subagentTurns: 2 });
      // The task's result went back to the lead in its second request.
      expect(ids(data.turns[1]!.request.ids).map((id) => data.messages[id]!).at(-1)).toMatchObject({ role: 'tool', content: expect.stringContaining('There are 2 notes.') });
    } finally {
      home.cleanup();
    }
  }, CLI_SESSION_TIMEOUT_MS);
});

describe('the page', () => {
  it('embeds the data so that no session text can close the script element', async () => {
    const hostile = 'a </script><script>alert(1)</script> <!-- & \u2028 \u2029 > end';
    const escaped = jsonForScript({ hostile });
    expect(escaped).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(escaped)).toEqual({ hostile });

    const data = await buildTrace(readSessionFile(recorded.path), { file: recorded.path });
    expect(data.messages[data.turns[3]!.reply!.messageId!]!.content).toContain('</script>');
    const html = tracePageHtml(data, chartAssets());
    // Only the page's own four script elements close.
    expect(html.match(/<\/script/gi)).toHaveLength(4);
    expect(html).not.toContain('<script>window.hostile');
    expect(html).toContain('\\u003cscript\\u003ewindow.hostile');
    const block = (id: string) => JSON.parse(html.match(new RegExp(`<script type="application/json" id="${id}">([^]*?)</script>`))![1]!);
    const outline = block('trace-data');
    const texts = block('trace-texts') as string[];
    const rebuilt = { ...outline, messages: outline.messages.map((message: object, i: number) => ({ ...message, content: texts[i] })) };
    expect(rebuilt).toEqual(JSON.parse(JSON.stringify(data)));
    expect(texts.some((text) => text.includes('</script><script>window.hostile'))).toBe(true);
    expect(html).toContain('uPlot');
  });

  it('never holds the secret the recording run had in its environment', async () => {
    expect(readFileSync(recorded.path, 'utf8')).not.toContain(TRACE_SECRET);
    expect(readFileSync(recorded.path, 'utf8')).toContain('[redacted]');
    const html = tracePageHtml(await buildTrace(readSessionFile(recorded.path), { file: recorded.path }), chartAssets());
    expect(html).not.toContain(TRACE_SECRET);
    expect(html).toContain('[redacted]');
  });
});
