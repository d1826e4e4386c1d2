import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentEvent } from '../contracts/events.js';
import type { EvalJob } from './jobs.js';
import { packageRoot } from './package-root.js';
import type { EvalResult } from './result.js';
import { childEnvironment } from '../tools/coding/shell/shell-env.js';
import { changedFiles, restoreFiles, writePrivateCopy, type SuiteSnapshot } from './suite-snapshot.js';

/** The CLI this module ships with: each run is a real `vibe-agent` process, as a user would run it. */
const CLI = join(packageRoot(), 'dist', 'cli', 'main.js');
/** The check command's own time limit: a fixture's tests, not the model's work. */
const CHECK_TIMEOUT_MS = 120_000;

export interface JobOptions {
  /** Flags passed to every run: provider, model, base URL, protocol. */
  cliFlags: string[];
  env: NodeJS.ProcessEnv;
  /** Each suite's files taken before any run started (see suite-snapshot.ts), by suite folder. */
  snapshots: ReadonlyMap<string, SuiteSnapshot>;
  signal?: AbortSignal;
}

/**
 * Copies the fixture, runs the CLI in the copy within the task's budgets, then runs the check there
 * with $VIBE_EVAL_SUITE a private copy of the suite written after the run ended.
 */
export async function runJob(job: EvalJob, options: JobOptions): Promise<EvalResult> {
  const { task } = job;
  const snapshot = options.snapshots.get(task.suite);
  if (!snapshot) throw new Error(`no snapshot of the suite ${task.suite} was taken before the run`);
  const dir = mkdtempSync(join(tmpdir(), `vibe-eval-${task.id}-`));
  const started = performance.now();
  try {
    if (task.fixture) cpSync(task.fixture, dir, { recursive: true });
    const flags = ['--json', '--yes', '--no-session', '--cwd', dir, '--max-turns', String(task.limits.maxTurns), ...options.cliFlags];
    if (task.limits.maxCost !== undefined) flags.push('--max-cost', String(task.limits.maxCost));
    if (task.tools) flags.push('--tools', task.tools);
    const ran = await runCli([...flags, '-p', task.prompt], dir, task.limits.timeoutSeconds * 1000, options);
    const stop = ran.events.find((event): event is Extract<AgentEvent, { type: 'stop' }> => event.type === 'stop');
    const start = ran.events.find((event): event is Extract<AgentEvent, { type: 'run_start' }> => event.type === 'run_start');
    const budget = ran.timedOut ? `time budget: over ${task.limits.timeoutSeconds} s` : budgetReason(stop, task.limits);
    const failure = suiteChanged(snapshot) ?? budget ?? runFailure(stop, ran.stderr) ?? (await runCheckFromCopy(task.check, dir, snapshot, options.env));
    return {
      type: 'result',
      task: task.id,
      run: job.run,
      passed: failure === undefined,
      reason: failure ?? null,
      stop: stop?.reason ?? null,
      provider: start?.provider ?? null,
      model: start?.model ?? null,
      turns: stop?.turns ?? 0,
      inputTokens: stop?.usage.inputTokens ?? 0,
      outputTokens: stop?.usage.outputTokens ?? 0,
      cost: stop?.cost ?? null,
      wallMs: Math.round(performance.now() - started),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function budgetReason(stop: Extract<AgentEvent, { type: 'stop' }> | undefined, limits: EvalJob['task']['limits']): string | undefined {
  if (stop?.reason === 'turn_limit') return `turn budget: ${limits.maxTurns} turns used up`;
  if (stop?.reason === 'cost_limit') return `cost budget: over $${limits.maxCost}`;
  return undefined;
}

function runFailure(stop: Extract<AgentEvent, { type: 'stop' }> | undefined, stderr: string): string | undefined {
  if (!stop) return `the run did not finish: ${lastLine(stderr) || 'no stop event'}`;
  if (stop.reason === 'answered') return undefined;
  return `${stop.reason.replace('_', ' ')}${stop.error ? `: ${stop.error}` : ''}`;
}

interface CliRun {
  events: AgentEvent[];
  stderr: string;
  timedOut: boolean;
}

function runCli(args: string[], cwd: string, timeoutMs: number, options: JobOptions): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const stopChild = () => {
      child.kill('SIGTERM');
      // A run ignoring SIGTERM (a stuck tool) is not allowed to hold the eval.
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      stopChild();
    }, timeoutMs);
    options.signal?.addEventListener('abort', stopChild, { once: true });
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', () => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stopChild);
      resolve({ events: parseEvents(stdout), stderr, timedOut });
    });
  });
}

function parseEvents(stdout: string): AgentEvent[] {
  return stdout.split('\n').flatMap((line) => {
    try {
      return line.trim() ? [JSON.parse(line) as AgentEvent] : [];
    } catch {
      return [];
    }
  });
}

/** A check or fixture changed during the run fails it; the suite gets its files back for the next runs. */
function suiteChanged(snapshot: SuiteSnapshot): string | undefined {
  const changed = changedFiles(snapshot);
  if (!changed.length) return undefined;
  restoreFiles(snapshot, changed);
  const names = changed.slice(0, 3).join(', ') + (changed.length > 3 ? ` and ${changed.length - 3} more` : '');
  return `the check was changed during the run: ${names} in the suite (restored; the check runs from a copy taken before the run)`;
}

/** The suite is written out only now, the run's processes gone, to a directory nothing the run saw names. */
async function runCheckFromCopy(command: string, cwd: string, snapshot: SuiteSnapshot, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const suite = writePrivateCopy(snapshot);
  try {
    return await runCheck(command, cwd, { ...childEnvironment(env), VIBE_EVAL_SUITE: suite });
  } finally {
    rmSync(suite, { recursive: true, force: true });
  }
}

/** Undefined when the check passes; otherwise its exit status and the tail of its output. */
function runCheck(command: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(command, { cwd, env, shell: true, stdio: ['ignore', 'pipe', 'pipe'], timeout: CHECK_TIMEOUT_MS });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code, signal) => {
      if (code === 0) return resolve(undefined);
      const tail = errorLine(output) ?? lastLine(output);
      resolve(`check failed (${signal ?? `exit ${code}`})${tail ? `: ${tail}` : ''}`);
    });
  });
}

/** The line naming the error in a crashed Node script's output (its last line is only Node's version). */
function errorLine(text: string): string | undefined {
  return text.split('\n').filter((line) => /^\w*Error\b.*:/.test(line.trim())).at(-1)?.trim().slice(0, 200);
}

function lastLine(text: string): string {
  return text.trim().split('\n').at(-1)?.slice(0, 200) ?? '';
}
