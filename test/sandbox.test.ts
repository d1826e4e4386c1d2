import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bubblewrapArgs } from '../src/sandbox/bubblewrap-sandbox.js';
import { detectBubblewrap } from '../src/sandbox/detect-bubblewrap.js';
import { findSecretPaths } from '../src/sandbox/hidden-secrets.js';
import { setUpShellSandbox } from '../src/sandbox/shell-sandbox-setup.js';
import { createBashTool } from '../src/tools/coding/shell/bash.js';
import { BackgroundJobs } from '../src/tools/coding/shell/background-jobs.js';
import { groupAlive } from '../src/tools/coding/shell/kill-tree.js';
import { lazySandbox, type ShellSandbox } from '../src/tools/coding/shell/shell-sandbox.js';

const status = detectBubblewrap();
// Said in the CI output, not hidden: where the kernel refuses user namespaces these cannot run.
if (!status.ok) console.warn(`SKIPPED (real bubblewrap tests): ${status.reason}`);

let root: string;
let workspace: string;
let outside: string;
let home: string;
let server: Server;
let port: number;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'vibe-sandbox-')));
  workspace = join(root, 'ws');
  // Not under /tmp: the sandbox's /tmp is private, so a path there would simply not exist inside.
  outside = realpathSync(mkdtempSync(join(homedir(), '.vibe-sandbox-outside-')));
  home = join(root, 'home');
  for (const dir of [workspace, outside, join(home, '.ssh')]) mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), 'PRIVATE KEY');
  writeFileSync(join(workspace, '.env'), 'TOKEN=secret');
  writeFileSync(join(workspace, 'readme.txt'), 'visible');
  server = createServer((_, res) => res.end('reached')).listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => {
  server.close();
  rmSync(root, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

async function run(sandbox: ShellSandbox | undefined, command: string): Promise<{ output: string; isError: boolean }> {
  const tool = createBashTool(sandbox ? { sandbox } : {});
  const result = await tool.execute({ command }, { signal: new AbortController().signal, workspace });
  return typeof result === 'string' ? { output: result, isError: false } : { output: result.output, isError: result.isError === true };
}

const sandboxFor = (network = false) =>
  setUpShellSandbox({ mode: 'on', workspace, addDirs: [], network, home, warn: () => undefined })!;

describe('the shell sandbox: arguments, detection, warning', () => {
  it('binds the root read-only, /tmp private, the writable folders back, masks secrets, drops the network', () => {
    const args = bubblewrapArgs({ writable: ['/ws', '/extra'], network: false, hidden: { files: ['/ws/.env'], dirs: ['/home/u/.ssh'] } }, '/ws/sub');
    expect(args.join(' ')).toBe(
      '--unshare-pid --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --bind /ws /ws --bind /extra /extra --tmpfs /home/u/.ssh --ro-bind /dev/null /ws/.env --unshare-net --die-with-parent --chdir /ws/sub --',
    );
    expect(bubblewrapArgs({ writable: ['/ws'], network: true, hidden: { files: [], dirs: [] } }, '/ws')).not.toContain('--unshare-net');
  });

  it('finds the secrets to hide: the home ones and the workspace ones by name', () => {
    const found = findSecretPaths([workspace], home);
    expect(found.dirs).toContain(join(home, '.ssh'));
    expect(found.files).toContain(join(workspace, '.env'));
    expect(found.files).not.toContain(join(workspace, 'readme.txt'));
  });

  it('where bubblewrap cannot run: auto warns once and runs unsandboxed; on refuses; off says nothing', () => {
    const warnings: string[] = [];
    const detect = () => ({ ok: false as const, reason: 'bubblewrap (bwrap) is not installed' });
    const setup = { workspace, addDirs: [], network: false, warn: (text: string) => warnings.push(text), detect };
    expect(setUpShellSandbox({ ...setup, mode: 'off' })).toBeUndefined();
    expect(warnings).toEqual([]);
    expect(setUpShellSandbox({ ...setup, mode: 'auto' })).toBeUndefined();
    expect(setUpShellSandbox({ ...setup, mode: 'auto' })).toBeUndefined();
    expect(warnings).toEqual([expect.stringContaining('WITHOUT a sandbox: bubblewrap (bwrap) is not installed')]);
    expect(() => setUpShellSandbox({ ...setup, mode: 'on' })).toThrow(/cannot run here: bubblewrap \(bwrap\) is not installed/);
  });
});

describe.runIf(status.ok)('the shell sandbox under real bubblewrap', () => {
  it('a write inside the workspace works; outside it is refused and the result says the sandbox did it', async () => {
    const inside = await run(sandboxFor(), 'echo ok > made.txt && cat made.txt');
    expect(inside).toEqual({ output: 'ok\n', isError: false });
    const refused = await run(sandboxFor(), `echo no > ${outside}/x.txt`);
    expect(refused.isError).toBe(true);
    expect(refused.output).toMatch(/Read-only file system/);
    expect(refused.output).toContain('[sandbox: this command may have failed because of the OS sandbox');
    expect(() => readFileSync(join(outside, 'x.txt'))).toThrow();
  });

  it('has a private /tmp', async () => {
    const probe = `vibe-sandbox-probe-${process.pid}`;
    const result = await run(sandboxFor(), `echo private > /tmp/${probe} && cat /tmp/${probe}`);
    expect(result.output).toBe('private\n');
    expect(() => readFileSync(join(tmpdir(), probe))).toThrow();
  });

  it('refuses a connection to a local server unless the network is allowed', async () => {
    const command = `exec 3<>/dev/tcp/127.0.0.1/${port} && printf 'GET / HTTP/1.0\\r\\n\\r\\n' >&3 && tail -1 <&3`;
    const blocked = await run(sandboxFor(), command);
    expect(blocked.isError).toBe(true);
    expect(blocked.output).toContain('[sandbox: this command may have failed because the OS sandbox has no network');
    expect(await run(sandboxFor(true), command)).toEqual({ output: 'reached', isError: false });
    expect(await run(undefined, command)).toEqual({ output: 'reached', isError: false });
  });

  it('has its own PID namespace: no host process is visible, none is reachable through /proc/<pid>/root', async () => {
    const seen = await run(sandboxFor(), 'ls /proc | grep -E "^[0-9]+$" | sort -n | tr "\\n" " "');
    const pids = seen.output.trim().split(' ').map(Number);
    // The namespace's init, the shell and the pipeline: a handful of small pids, not the host's.
    expect(Math.max(...pids)).toBeLessThan(20);
    expect(await run(sandboxFor(), `test -e /proc/${process.pid}/root/${outside}`)).toMatchObject({ isError: true });
    const through = await run(sandboxFor(), `echo escaped > /proc/${process.pid}/root${outside}/escaped.txt`);
    expect(through.isError).toBe(true);
    expect(() => readFileSync(join(outside, 'escaped.txt'))).toThrow();
    // Unsandboxed, the same path does lead out: the test would notice if it proved nothing.
    expect(await run(undefined, `test -d /proc/${process.pid}/root${outside}`)).toMatchObject({ isError: false });
  });

  it('a background job in the sandbox runs, is read, and is killed with its whole namespace', async () => {
    const jobs = new BackgroundJobs();
    const tool = createBashTool({ sandbox: sandboxFor(), jobs });
    const started = String(await tool.execute({ command: 'echo started; exec sleep 300', run_in_background: true }, { signal: new AbortController().signal, workspace }));
    const id = /as (bg\d+)/.exec(started)![1]!;
    const pid = Number(/pid (\d+)/.exec(started)![1]);
    let seen = '';
    while (!seen.includes('started')) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      seen += jobs.read(id)?.output ?? '';
    }
    expect(await jobs.kill(id)).toBe(true);
    expect(groupAlive(pid)).toBe(false);
  });

  it('a process a foreground command leaves behind lives on as a background job, with its namespace; the call returns at once', async () => {
    const jobs = new BackgroundJobs();
    const tool = createBashTool({ sandbox: sandboxFor(), jobs });
    const result = String(await tool.execute({ command: 'sleep 300 & echo started; exit 3' }, { signal: new AbortController().signal, workspace }).then((out) => (typeof out === 'string' ? out : out.output)));
    expect(result).toContain('started');
    expect(result).toContain('exit code: 3');
    const id = /background job (bg\d+)/.exec(result)![1]!;
    const [job] = jobs.list();
    expect(job).toMatchObject({ id, running: true });
    expect(await jobs.kill(id)).toBe(true);
    expect(groupAlive(job!.pid)).toBe(false);
  });

  it('hides secret files', async () => {
    const result = await run(sandboxFor(), `cat .env; ls -A ${home}/.ssh; cat readme.txt`);
    expect(result.output).toContain('visible');
    expect(result.output).not.toMatch(/TOKEN=secret|id_ed25519/);
  });
});

describe('the sandbox at start-up', () => {
  it('is set up on the first command, not before: a run that never calls the shell pays no probe', () => {
    let made = 0;
    const sandbox = lazySandbox(() => {
      made++;
      return { name: 'probe', wrap: (argv) => ['wrapped', ...argv], explainFailure: () => 'sandbox' };
    });
    expect(made).toBe(0);
    expect(sandbox.wrap(['bash', '-c', 'true'], '/')).toEqual(['wrapped', 'bash', '-c', 'true']);
    expect(sandbox.explainFailure('x')).toBe('sandbox');
    expect(sandbox.name).toBe('probe');
    expect(made).toBe(1);
  });
});
