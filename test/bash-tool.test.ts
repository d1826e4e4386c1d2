import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bashTool, HeadTailBuffer } from '../src/tools/coding/shell/bash.js';
import { ToolRegistry } from '../src/tools/registry.js';
import type { ToolOutput } from '../src/contracts/tool.js';

let workspace: string;

beforeEach(async () => {
  workspace = await realpath(await mkdtemp(join(tmpdir(), 'vibe-bash-')));
});

afterEach(async () => {
  await rm(workspace, { recursive: true, force: true });
});

function normalize(result: ToolOutput): { output: string; isError: boolean } {
  return typeof result === 'string' ? { output: result, isError: false } : { output: result.output, isError: result.isError === true };
}

async function run(command: string, options: { timeout_ms?: number; signal?: AbortSignal } = {}) {
  const signal = options.signal ?? new AbortController().signal;
  const args = options.timeout_ms === undefined ? { command } : { command, timeout_ms: options.timeout_ms };
  return normalize(await bashTool.execute(args, { signal, workspace }));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls until the process is gone; false if it is still alive at the deadline. */
async function waitUntilGone(pid: number, withinMs = 30_000): Promise<boolean> {
  const deadline = Date.now() + withinMs;
  while (Date.now() < deadline) {
    if (!isAlive(pid)) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return !isAlive(pid);
}

async function waitForFile(path: string, withinMs = 30_000): Promise<string> {
  const deadline = Date.now() + withinMs;
  for (;;) {
    const text = await readFile(path, 'utf8').catch(() => '');
    if (text.trim() !== '' || Date.now() > deadline) return text.trim();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('bash tool', () => {
  it('is an approval-needing tool whose own time-out exceeds the per-call maximum', async () => {
    expect(bashTool.name).toBe('bash');
    expect(bashTool.needsApproval).toBe(true);
    expect(bashTool.readOnly).toBe(false);
    expect(bashTool.timeoutMs).toBeGreaterThan(600_000);
    expect(bashTool.description.split(/\s+/).length).toBeLessThanOrEqual(60);
    expect((await bashTool.checkArguments({ command: 'ls', timeout_ms: 600_001 })).ok).toBe(false);
  });

  it('returns stdout and exit code 0', async () => {
    const result = await run('echo hello');
    expect(result).toEqual({ output: 'hello\n', isError: false });
  });

  it('reports a non-zero exit code as an error', async () => {
    const result = await run('echo failing; exit 3');
    expect(result.isError).toBe(true);
    expect(result.output).toBe('failing\nexit code: 3');
  });

  it('includes stderr', async () => {
    const result = await run('echo oops >&2');
    expect(result.output).toContain('oops');
    expect(result.output).not.toContain('exit code');
  });

  it('runs in the workspace with pager and git prompts disabled', async () => {
    const result = await run('pwd; echo "$PAGER $GIT_TERMINAL_PROMPT"');
    expect(result.output).toBe(`${workspace}\ncat 0\n`);
  });

  it('gives the command no stdin, so reads return at once and empty', async () => {
    // A read that waited for input would be killed at the time limit, before the echo.
    const result = await run('read x; echo "got:$x"', { timeout_ms: 10_000 });
    expect(result.output).toContain('got:\n');
  });

  it('kills the whole process tree on time-out', async () => {
    // Long enough for the shell to start its child and write its pid at load 8 on 2 cores (300 ms left little room).
    const result = await run('sleep 30 & echo $! > child.pid; wait', { timeout_ms: 2_000 });
    expect(result.isError).toBe(true);
    expect(result.output).toMatch(/killed: timed out after 2000 ms$/);
    const pid = Number(await readFile(join(workspace, 'child.pid'), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    expect(await waitUntilGone(pid)).toBe(true);
  });

  it('kills the whole process tree when the signal aborts', async () => {
    const controller = new AbortController();
    const pending = run('sleep 30 & echo $! > child.pid; echo started; wait', { signal: controller.signal, timeout_ms: 60_000 });
    const pid = Number(await waitForFile(join(workspace, 'child.pid')));
    expect(isAlive(pid)).toBe(true);
    controller.abort();
    const result = await pending;
    expect(result.isError).toBe(true);
    expect(result.output).toBe('started\nkilled: cancelled');
    expect(await waitUntilGone(pid)).toBe(true);
  });

  it('does not start at all when already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    const result = await run('touch ran', { signal: controller.signal });
    expect(result).toEqual({ output: 'killed: cancelled before it started', isError: true });
    expect(await readFile(join(workspace, 'ran')).catch(() => 'absent')).toBe('absent');
  });

  it('holds the first and last million characters of huge output and says how much there was; the registry cuts it, storing what it holds', async () => {
    const result = await run('yes | head -c 5000000; echo THE-END');
    expect(result.output).toMatch(/^y\ny\n/);
    expect(result.output).toMatch(/y\nTHE-END\n\[5000008 characters of output in all\]$/);
    expect(result.output.length).toBe(2_000_000 + '\n[5000008 characters of output in all]'.length - 1);
    const registry = new ToolRegistry([bashTool]);
    const seen = await registry.invoke({ id: 'b', name: 'bash', arguments: JSON.stringify({ command: 'yes | head -c 5000000; echo THE-END' }) }, { workspace });
    expect(seen.content.length).toBeLessThan(30_200);
    const id = /full output saved as output id (out_[0-9a-f]{12})/.exec(seen.content)![1]!;
    expect(await registry.outputs.get(id)).toBe(result.output);
  });

  it('keeps interleaved stdout and stderr roughly in arrival order', async () => {
    // Two pipes, read as they come: the gaps outlast a busy event loop's pause at load 8 (50 ms left little room).
    const result = await run('echo one; sleep 0.2; echo two >&2; sleep 0.2; echo three; sleep 0.2; echo four >&2');
    expect(result.output).toBe('one\ntwo\nthree\nfour\n');
  });

  it('reports a missing workspace as an error instead of throwing', async () => {
    const result = normalize(await bashTool.execute({ command: 'echo hi' }, { signal: new AbortController().signal, workspace: join(workspace, 'missing') }));
    expect(result.isError).toBe(true);
    expect(result.output).toContain('Could not start the shell');
  });
});

describe('HeadTailBuffer', () => {
  it('keeps the first and last characters within its bound', () => {
    const buffer = new HeadTailBuffer(4);
    for (const chunk of ['abc', 'defg', 'hijkl', 'mnop', 'qrstu']) buffer.append(chunk);
    expect(buffer.text()).toBe('abcdrstu');
    expect(buffer.totalChars).toBe(21);
    expect(buffer.droppedChars).toBe(13);
  });

  it('drops nothing while under the bound', () => {
    const buffer = new HeadTailBuffer(10);
    buffer.append('short');
    expect(buffer.text()).toBe('short');
    expect(buffer.droppedChars).toBe(0);
  });
});
