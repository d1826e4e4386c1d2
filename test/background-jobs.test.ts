import { mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BackgroundJobs } from '../src/tools/coding/shell/background-jobs.js';
import { createBackgroundTools } from '../src/tools/coding/shell/background-tools.js';
import { createBashTool, DEFAULT_BASH_TIMEOUT_MS } from '../src/tools/coding/shell/bash.js';
import type { Tool, ToolOutput } from '../src/contracts/tool.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { cliHome, type CliHome } from './support/cli-process.js';
import { isAlive, pidFrom, pidsWithArgument, until } from './support/processes.js';

let workspace: string;
let jobs: BackgroundJobs;
let tools: Record<string, Tool>;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'vibe-bg-')));
  jobs = new BackgroundJobs();
  tools = Object.fromEntries([createBashTool({ jobs }), ...createBackgroundTools(jobs)].map((tool) => [tool.name, tool]));
});

afterEach(async () => {
  await jobs.killAll();
  await rm(workspace, { recursive: true, force: true });
});

const text = (result: ToolOutput) => (typeof result === 'string' ? result : result.output);
const call = async (name: string, args: unknown) => text(await tools[name]!.execute(args, { signal: new AbortController().signal, workspace }));

describe('background shell jobs', () => {
  it('starts at once with an id, reads only new output, reports the exit code', async () => {
    // The job waits for a file the test has not made yet, so returning "at once" is real.
    const started = await call('bash', { command: 'echo first; until [ -e go ]; do sleep 0.05; done; echo second; exit 3', run_in_background: true });
    const id = /as (bg\d+)/.exec(started)![1]!;
    const first = await until(async () => {
      const out = await call('bash_output', { id });
      return out.includes('first') ? out : undefined;
    }, 'the first line');
    expect(first).toContain('status: running');
    expect(first).not.toContain('second');
    expect(await call('bash_output', { id })).toContain('[no new output]\nstatus: running');
    await writeFile(join(workspace, 'go'), '');
    // On a loaded machine "second" may be read while the shell still runs, and the exit by a later read.
    const reads: string[] = [];
    await until(async () => {
      reads.push(await call('bash_output', { id }));
      return reads.at(-1)!.includes('status: exited') ? true : undefined;
    }, 'the job to exit');
    expect(reads.at(-1)).toMatch(/status: exited, exit code: 3$/);
    expect(reads.join('\n').match(/second/g)).toHaveLength(1);
  });

  it('bash_kill stops the whole tree; bash_output then says it exited', async () => {
    const started = await call('bash', { command: 'sleep 300 & echo $! > child.pid; echo $$ > shell.pid; wait', run_in_background: true });
    const id = /as (bg\d+)/.exec(started)![1]!;
    const [child, shell] = [await pidFrom(join(workspace, 'child.pid')), await pidFrom(join(workspace, 'shell.pid'))];
    expect(isAlive(child) && isAlive(shell)).toBe(true);
    expect(await call('bash_kill', { id })).toBe(`${id} stopped.`);
    await until(() => !isAlive(child) && !isAlive(shell), 'the job tree to be gone');
    expect(await until(async () => { const out = await call('bash_output', { id }); return out.includes('status: exited') ? out : undefined; }, 'exited status')).toMatch(/killed by signal|exit code/);
    expect(await call('bash_kill', { id: 'bg99' })).toContain('No background job "bg99"');
  });

  it('a foreground `server &` returns when the shell exits; the daemon becomes a tracked job', async () => {
    const started = Date.now();
    const result = text(await tools.bash!.execute({ command: 'sleep 300 & echo $! > daemon.pid; echo serving' }, { signal: new AbortController().signal, workspace }));
    expect(Date.now() - started).toBeLessThan(DEFAULT_BASH_TIMEOUT_MS);
    expect(result).toContain('serving');
    // A success with output carries no `exit code: 0` line (it is said by the result's flag).
    expect(result).not.toContain('exit code:');
    const id = /background job (bg\d+)/.exec(result)![1]!;
    const daemon = await pidFrom(join(workspace, 'daemon.pid'));
    expect(isAlive(daemon)).toBe(true);
    expect(jobs.list()).toEqual([expect.objectContaining({ id, running: true })]);
    await jobs.kill(id);
    await until(() => !isAlive(daemon), 'the daemon to be gone');
  });
});

describe('background jobs when the CLI exits', () => {
  const servers: ChatServer[] = [];
  const homes: CliHome[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
    for (const home of homes.splice(0)) home.cleanup();
  });

  // Named by a marker in its argv: under the sandbox, `$!` is a pid of the job's own PID namespace.
  const marker = `vibe-job-${process.pid}`;
  const startJob = { toolCalls: [{ name: 'bash', arguments: { command: `(exec -a ${marker} sleep 300) & echo $! > bg.pid; wait`, run_in_background: true } }] };

  it.each([
    ['a normal exit', undefined],
    ['SIGTERM', 'SIGTERM'],
    ['SIGHUP (the terminal closing)', 'SIGHUP'],
    ['Ctrl-C twice', 'SIGINT'],
  ] as const)('kills every job tree on %s', async (_, signal) => {
    const server = await startChatServer(signal ? [startJob, { kind: 'silent' }] : [startJob, { text: 'started it' }]);
    servers.push(server);
    const home = cliHome();
    homes.push(home);
    const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' };
    const ran = home.run(['--permission-mode', 'yolo', 'start a server'], env, (child) => {
      if (!signal) return;
      void (async () => {
        await pidFrom(join(home.workspace, 'bg.pid'));
        // Seen from here while it runs, so its absence later means it was killed.
        await until(() => pidsWithArgument(marker).length > 0, `the job's process (${marker}) to be seen running`);
        await server.waitForRequest(2);
        child.kill(signal);
        if (signal === 'SIGINT') child.kill(signal);
      })();
    });
    const result = await ran;
    await pidFrom(join(home.workspace, 'bg.pid'));
    if (!signal) expect(result.code).toBe(0);
    await until(() => pidsWithArgument(marker).length === 0, `the job's process (${marker}) to be gone after ${signal ?? 'exit'}`);
  });
});
