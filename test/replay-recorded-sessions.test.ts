import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { startAgentServer, tasks } from './support/agent-server.js';
import { CLI_SESSION_TIMEOUT_MS, cliHome, type CliHome } from './support/cli-process.js';
import { recordTraceSession, TRACE_SECRET, type RecordedSession } from './support/trace-recording.js';

/**
 * `vibe-agent replay` on sessions recorded the way other test files record them (the trace page's
 * session, plan mode, subagents), through the built CLI: each one the replay covers is identical.
 */
const cleanups: Array<() => unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const recordedLines = (path: string) => readFileSync(path, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; status?: string });

describe('replay on the sessions the suite records', { timeout: CLI_SESSION_TIMEOUT_MS * 3 }, () => {
  it('tool calls with an error, a 429 retry, two compactions and a redacted secret; then the session continued: identical, run by run', async () => {
    const recorded: RecordedSession = await recordTraceSession();
    cleanups.push(() => recorded.cleanup());
    expect(recorded.ran.code, recorded.ran.stderr).toBe(0);
    const kinds = recordedLines(recorded.path);
    expect(kinds.filter((record) => record.type === 'tool_call_end').map((record) => record.status)).toContain('error');
    expect(kinds.filter((record) => record.type === 'retry')).toHaveLength(1);
    expect(kinds.filter((record) => record.type === 'compaction')).toHaveLength(2);
    // The flags the run was made with that shape requests (replay needs no key or server).
    const flags = ['--yes', '--context-window', '4096'];
    const once = await recorded.home.run(['replay', recorded.path, ...flags]);
    expect(once.stderr).toBe('');
    expect(once.stdout).toBe('identical: the 4 requests of 4 turns are byte for byte the recorded ones.\n');
    expect(once.code).toBe(0);

    const env = { OPENAI_API_KEY: 'test-key-for-trace', OPENAI_BASE_URL: recorded.server.url, VIBE_MODEL: 'gpt-4o', TRACE_DEPLOY_TOKEN: TRACE_SECRET };
    const continued = await recorded.home.run(['--continue', 'and the other files?', ...flags], env);
    expect(continued.code, continued.stderr).toBe(0);
    expect(recordedLines(recorded.path).filter((record) => record.type === 'run_start')).toHaveLength(2);
    const twice = await recorded.home.run(['replay', recorded.path, ...flags]);
    expect(twice.stdout).toMatch(/^identical: the \d+ requests of \d+ turns in 2 runs are byte for byte the recorded ones\.\n$/);
    expect(twice.code).toBe(0);
    // Not vacuous: under another window the same file differs.
    const other = await recorded.home.run(['replay', recorded.path, '--yes', '--context-window', '8192']);
    expect(other.code).toBe(1);
    expect(other.stdout).toMatch(/^differs /);
  });

  it('plan mode with a refused write: identical under plan mode, different without it', async () => {
    const agents = await startAgentServer({
      lead: [
        { toolCalls: [{ name: 'write_file', arguments: { path: 'x.txt', content: 'hi' } }] },
        { toolCalls: [{ name: 'list_files', arguments: {} }] },
        { text: 'Plan: 1. create x.txt with write_file.' },
      ],
    });
    const home: CliHome = cliHome();
    cleanups.push(() => home.cleanup());
    const ran = await home.run(['--permission-mode', 'plan', 'lead'], { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: agents.server.url, VIBE_MODEL: 'gpt-4o' });
    expect(ran.code, ran.stderr).toBe(0);
    const path = home.sessionPath(home.sessionFiles()[0]!);
    expect(recordedLines(path).filter((record) => record.type === 'tool_call_end').map((record) => record.status)).toEqual(['denied', 'ok']);
    const replayed = await home.run(['replay', path, '--permission-mode', 'plan']);
    expect(replayed.stdout).toBe('identical: the 3 requests of 3 turns are byte for byte the recorded ones.\n');
    expect(replayed.code).toBe(0);
    const unplanned = await home.run(['replay', path]);
    expect(unplanned.code).toBe(1);
  });

  it('a session whose run started a subagent is refused with a reason (exit 2), as documented', async () => {
    const agents = await startAgentServer({
      lead: [tasks({ prompt: 'count the notes' }), { text: 'Counted.' }],
      'count the notes': [{ text: 'There are none.' }],
    });
    const home: CliHome = cliHome();
    cleanups.push(() => home.cleanup());
    const ran = await home.run(['--tools', 'coding,agents', 'lead'], { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: agents.server.url, VIBE_MODEL: 'gpt-4o' });
    expect(ran.code, ran.stderr).toBe(0);
    const path = home.sessionPath(home.sessionFiles()[0]!);
    const replayed = await home.run(['replay', path, '--tools', 'coding,agents']);
    expect(replayed.code).toBe(2);
    expect(replayed.stderr).toMatch(/subagent/i);
  });
});
