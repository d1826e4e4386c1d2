import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NotReplayable, recordedRuns } from '../src/replay/recorded-run.js';
import { listSessions } from '../src/session/list-sessions.js';
import { parseSessionText } from '../src/session/read-session.js';
import { rebuildHistory } from '../src/session/rebuild-history.js';
import { loadImages } from '../src/session/session-images.js';
import { buildTrace } from '../src/trace/build-trace.js';
import { CLI_SESSION_TIMEOUT_MS } from './support/cli-process.js';
import { recordTraceSession, type RecordedSession } from './support/trace-recording.js';

let recorded: RecordedSession;
let lines: string[];
beforeAll(async () => {
  recorded = await recordTraceSession();
  lines = readFileSync(recorded.path, 'utf8').trim().split('\n');
}, CLI_SESSION_TIMEOUT_MS);
afterAll(() => recorded?.cleanup());

const wrongValue = fc.oneof(fc.constant(null), fc.integer(), fc.double(), fc.string({ maxLength: 5 }), fc.constant([]), fc.constant({}), fc.constant([null]), fc.constant({ role: null }), fc.boolean());

/** Every key path of a JSON value, objects and arrays alike, up to `depth`. */
function keyPaths(value: unknown, depth = 5, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (depth === 0 || value === null || typeof value !== 'object') return [];
  const entries = Array.isArray(value) ? value.map((item, i) => [i, item] as const) : Object.entries(value);
  return entries.flatMap(([key, item]) => [[...prefix, key], ...keyPaths(item, depth - 1, [...prefix, key])]);
}

function setAt(root: unknown, path: Array<string | number>, value: unknown): void {
  let target = root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) target = target[key] as Record<string | number, unknown>;
  target[path.at(-1)!] = value;
}

function deep(depth: number): string {
  return `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

/** Every reader of a session file, in-process: only a clear refusal may come out of any of them. */
async function readAll(text: string): Promise<string[]> {
  const read = parseSessionText(text, 'fuzzed.jsonl');
  const warnings: string[] = [];
  rebuildHistory(loadImages(read.records, '/nonexistent-images', warnings));
  await buildTrace(read, { file: 'fuzzed.jsonl' });
  try {
    recordedRuns(read.records);
  } catch (error) {
    if (!(error instanceof NotReplayable)) throw error;
  }
  return read.warnings;
}

describe('session records of the wrong shape are refused as the file is read', () => {
  it('every record the agent writes passes the check (this session, and a version-1 file)', () => {
    expect(parseSessionText(lines.join('\n') + '\n').warnings).toEqual([]);
    const v1 = readFileSync(join(import.meta.dirname, 'fixtures', 'v1-duplicated-session.jsonl'), 'utf8');
    expect(parseSessionText(v1).warnings).toEqual([]);
  });

  it('a message that is null is named by file and line; the rest of the file is read', () => {
    const index = lines.findIndex((line) => line.includes('"type":"assistant_message"'));
    const record = JSON.parse(lines[index]!) as Record<string, unknown>;
    const changed = lines.map((line, i) => (i === index ? JSON.stringify({ ...record, message: null }) : line));
    const read = parseSessionText(`${changed.join('\n')}\n`, 'broken.jsonl');
    expect(read.warnings).toEqual([`broken.jsonl: line ${index + 1} is not a valid record (a "assistant_message" record whose message is null, expected an object); skipped.`]);
    expect(read.skippedLines).toEqual([index + 1]);
    expect(read.records).toHaveLength(lines.length - 1);
  });

  it.each([
    ['null', 'null', 'null, not a record'],
    ['a list', '[]', 'an array, not a record'],
    ['a string', '"text"', 'string, not a record'],
    ['no type', '{"no":"type"}', 'it has no "type"'],
    ['a turn as text', '{"type":"turn_end","turn":"2","messages":[]}', 'a "turn_end" record whose turn is text, expected a number'],
    ['arguments as an object', '{"type":"tool_call_start","turn":1,"call":{"id":"x","name":"read_file","arguments":{}}}', 'a "tool_call_start" record whose call.arguments is an object, expected text'],
    ['an unknown role', '{"type":"request","digest":"d","keep":0,"append":[{"role":"wizard","content":""}]}', 'a "request" record whose append[0].role is text, expected system, user, assistant or tool'],
    ['nesting 100,000 deep', `{"type":"run_start","input":"x","images":${deep(100_000)}}`, 'arrays and objects are nested 100001 levels deep; at most 256 are accepted'],
  ])('a line with %s is skipped with its reason', async (_label, line, reason) => {
    const text = `${[lines[0], line, ...lines.slice(1)].join('\n')}\n`;
    const warnings = await readAll(text);
    expect(warnings).toEqual([`fuzzed.jsonl: line 2 is not a valid record (${reason}); skipped.`]);
  });

  it('property: one field anywhere set to null or a wrong type never crashes a reader', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.nat(), wrongValue, async (lineSeed, pathSeed, value) => {
        const index = lineSeed % lines.length;
        const record = JSON.parse(lines[index]!) as unknown;
        const paths = keyPaths(record);
        if (paths.length) setAt(record, paths[pathSeed % paths.length]!, value);
        const changed = lines.map((line, i) => (i === index ? JSON.stringify(record) : line));
        await readAll(`${changed.join('\n')}\n`);
      }),
      { numRuns: 300 },
    );
  }, 120_000);

  it('property: nesting of any depth in any record never throws RangeError', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), fc.integer({ min: 1, max: 100_000 }), async (lineSeed, depth) => {
        const index = lineSeed % lines.length;
        const record = JSON.parse(lines[index]!) as Record<string, unknown>;
        const line = JSON.stringify({ ...record, nested: '§' }).replace('"§"', deep(depth));
        await readAll(`${lines.map((one, i) => (i === index ? line : one)).join('\n')}\n`);
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('through the CLI: replay names the file and line of a null message, and neither it, sessions nor trace crashes', async () => {
    const index = lines.findIndex((line) => line.includes('"type":"assistant_message"'));
    const record = JSON.parse(lines[index]!) as Record<string, unknown>;
    writeFileSync(recorded.path, `${lines.map((line, i) => (i === index ? JSON.stringify({ ...record, message: null }) : line)).join('\n')}\n`);
    const named = `${recorded.path}: line ${index + 1} is not a valid record (a "assistant_message" record whose message is null, expected an object); skipped.`;
    const { home } = recorded;
    const replay = await home.run(['replay', recorded.path, '--yes', '--context-window', '4096']);
    expect(replay.stderr).toContain(named);
    expect(replay.stderr).not.toMatch(/TypeError|RangeError|at .*\.js:\d+/);
    expect([0, 1]).toContain(replay.code);
    const sessions = await home.run(['sessions']);
    expect(sessions.code).toBe(0);
    const trace = await home.run(['trace', recorded.path, '--html', join(home.root, 'trace.html')]);
    expect(trace.stderr).toMatch(/^vibe-agent: \d+ unreadable lines or records of .* were skipped \(listed on the page\)\.\n$/);
    expect(trace.code).toBe(0);
    const id = home.sessionFiles()[0]!.replace('.jsonl', '');
    expect(listSessions(home.workspace, home.env).map((session) => session.id)).toContain(id);
  }, CLI_SESSION_TIMEOUT_MS * 2);
});
