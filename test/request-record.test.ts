import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { canonicalJson } from '../src/contracts/canonical-json.js';
import type { Message } from '../src/contracts/messages.js';
import type { ModelRequest } from '../src/contracts/provider.js';
import { parseSessionText } from '../src/session/read-session.js';
import { createRedactor } from '../src/session/redact.js';
import { CanonicalTexts, rebuildRequests, requestDigest, RequestLog } from '../src/session/request-record.js';
import { SessionWriter } from '../src/session/session-writer.js';
import { recordedRun, NotReplayable } from '../src/replay/recorded-run.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function writer(redact?: (text: string) => string): SessionWriter {
  const dir = mkdtempSync(join(tmpdir(), 'vibe-request-record-'));
  dirs.push(dir);
  return SessionWriter.open(join(dir, 's.jsonl'), redact ? { redact } : {}).writer;
}

const tools = [{ name: 'read_file', description: 'Reads a file.', parameters: { type: 'object', properties: { path: { type: 'string' } } } }];
const request = (messages: Message[], extra: Partial<ModelRequest> = {}): ModelRequest => ({ model: 'm', messages, tools, temperature: 0, ...extra });

/** The history of a conversation after `turns` tool turns. */
function history(turns: number): Message[] {
  const messages: Message[] = [{ role: 'system', content: 'You are helpful.' }, { role: 'user', content: 'go' }];
  for (let turn = 1; turn <= turns; turn++) {
    messages.push({ role: 'assistant', content: '', toolCalls: [{ id: `c${turn}`, name: 'read_file', arguments: `{"path":"f${turn}.txt"}` }] });
    messages.push({ role: 'tool', toolCallId: `c${turn}`, name: 'read_file', content: `contents of file ${turn} `.repeat(20), isError: false });
  }
  return messages;
}

const records = (w: SessionWriter) => parseSessionText(readFileSync(w.path, 'utf8')).records;

describe('request records', () => {
  it('store each request as what changed since the last: the file grows linearly, and every request is rebuilt exactly', () => {
    const w = writer();
    const sent: ModelRequest[] = [];
    const sizes: number[] = [];
    for (let turn = 0; turn < 200; turn++) {
      sent.push(request(history(turn)));
      w.recordRequest(sent.at(-1)!);
      sizes.push(statSync(w.path).size);
    }
    // The 200th request adds about what the 2nd did, not 100 times as much.
    const first = sizes[2]! - sizes[1]!;
    const last = sizes[199]! - sizes[198]!;
    expect(last).toBeLessThan(first * 1.2);
    const rebuilt = rebuildRequests(records(w));
    expect(rebuilt.warnings).toEqual([]);
    expect(rebuilt.requests.map((r) => r.request)).toEqual(sent);
    // Each digest, built round by round on the last one's chain, is the digest of the whole request computed afresh.
    expect(rebuilt.requests.map((r) => r.digest)).toEqual(sent.map((r) => requestDigest(r)));
    // The per-message cache gives the same text as canonical JSON of the whole request.
    expect(new CanonicalTexts().request(sent.at(-1)!)).toBe(canonicalJson(sent.at(-1)));
  });

  it('digest a request as a chain over its messages, so a round hashes only what it added (the formula, checked by hand)', () => {
    const sha = (text: string) => createHash('sha256').update(text).digest('hex');
    const r = request(history(1));
    let chain = '';
    for (const message of r.messages) chain = sha(chain + sha(canonicalJson(message)));
    const expected = `chain:${sha(`${canonicalJson({ model: 'm', temperature: 0 })}\n${sha(canonicalJson(tools))}\n${chain}`)}`;
    expect(requestDigest(r)).toBe(expected);
    // Any change to a message, the tools or the parameters changes it.
    expect(requestDigest(request(history(1), { temperature: 1 }))).not.toBe(expected);
    expect(requestDigest({ ...r, tools: [] })).not.toBe(expected);
    expect(requestDigest(request([...r.messages.slice(0, -1), { role: 'user', content: 'x' }]))).not.toBe(expected);
  });

  it('still verify files written with whole-request digests (sha256: of the canonical request), and catch tampering there', () => {
    const whole = request(history(1));
    const digest = `sha256:${createHash('sha256').update(canonicalJson(whole)).digest('hex')}`;
    const line = { type: 'request', digest, keep: 0, append: whole.messages, tools: whole.tools, params: { model: 'm', temperature: 0 } };
    expect(rebuildRequests([line])).toMatchObject({ requests: [{ digest, request: whole }], warnings: [] });
    const tampered = { ...line, append: [...whole.messages.slice(0, -1), { role: 'user', content: 'changed' }] };
    expect(rebuildRequests([tampered])).toMatchObject({ requests: [], warnings: [expect.stringContaining('does not match its digest')] });
  });

  it('give tools and parameters only when they change, and build on the closest recent request (a summary request in between)', () => {
    const w = writer();
    w.recordRequest(request(history(3)));
    w.recordRequest(request([{ role: 'user', content: 'summarise these turns' }], { tools: [], maxTokens: 2048 }));
    const compacted: Message[] = [...history(3).slice(0, 2), { role: 'user', content: 'summary' }, ...history(3).slice(6)];
    w.recordRequest(request(compacted, { temperature: 0.5 }));
    const [turn, summary, next] = records(w).filter((r) => r.type === 'request') as Array<Record<string, unknown>>;
    expect(turn!.base).toBeUndefined();
    expect(turn!.tools).toEqual(tools);
    expect(summary).toMatchObject({ keep: 0, tools: [], params: { model: 'm', temperature: 0, maxTokens: 2048 } });
    // Based on the turn request, not the summary between them: two messages kept.
    expect(next).toMatchObject({ base: turn!.digest, keep: 2, params: { temperature: 0.5 } });
    expect(next!.tools).toBeUndefined();
    expect(rebuildRequests(records(w)).requests.at(-1)!.request.messages).toEqual(compacted);
  });

  it('are redacted before the digest is taken, and a tampered record is reported and left out', () => {
    const w = writer(createRedactor(['sk-secret-value-123']));
    w.recordRequest(request([{ role: 'user', content: 'my key is sk-secret-value-123' }]));
    const text = readFileSync(w.path, 'utf8');
    expect(text).not.toContain('sk-secret-value-123');
    const [record] = rebuildRequests(parseSessionText(text).records).requests;
    expect(record!.request.messages[0]!.content).toBe('my key is [redacted]');
    const tampered = parseSessionText(text.replace('my key is', 'your key is'));
    expect(rebuildRequests(tampered.records)).toMatchObject({ requests: [], warnings: [expect.stringContaining('does not match its digest')] });
  });

  it('a session written before request records existed (format 1) reads as before and is refused by replay with a reason', () => {
    const text = readFileSync(join(import.meta.dirname, 'fixtures', 'v1-duplicated-session.jsonl'), 'utf8');
    const read = parseSessionText(text);
    expect(read.header?.version).toBe(1);
    expect(rebuildRequests(read.records).requests).toEqual([]);
    expect(() => recordedRun(read.records)).toThrow(NotReplayable);
    expect(() => recordedRun(read.records)).toThrow(/no request records/);
  });

  it('replay refuses a session with subagent events', () => {
    const lines = [
      { ...new RequestLog().record(request([{ role: 'user', content: 'x' }])) },
      { type: 'run_start', provider: 'openai', model: 'm', tools: [], input: 'x' },
      { type: 'run_start', provider: 'openai', model: 'm', tools: [], input: 'child', agent: 'main/task-1' },
    ];
    expect(() => recordedRun(lines)).toThrow(/subagents \(main\/task-1\)/);
  });
});
