import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { z } from 'zod';

/** What a task may spend; over any of them the task counts as failed, with the budget as its reason. */
export interface TaskLimits {
  maxTurns: number;
  /** US dollars (needs a model with a known price: passed on as --max-cost). */
  maxCost?: number;
  timeoutSeconds: number;
}

/** One task of a suite: a prompt run in a copy of the fixture, judged by the check command's exit status. */
export interface EvalTask {
  id: string;
  prompt: string;
  /** Absolute path of the directory copied for each run; none: an empty directory. */
  fixture?: string;
  /** The suite's directory, given to the check as $VIBE_EVAL_SUITE: checks kept there are out of the model's reach. */
  suite: string;
  /** A shell command run in the run's directory afterwards: exit 0 means solved. */
  check: string;
  /** --tools for the run (default: the CLI's default set). */
  tools?: string;
  limits: TaskLimits;
}

export const DEFAULT_LIMITS: TaskLimits = { maxTurns: 20, timeoutSeconds: 300 };

const taskFileSchema = z
  .object({
    id: z.string().regex(/^[\w.-]+$/).optional(),
    prompt: z.string().min(1),
    fixture: z.string().min(1).optional(),
    check: z.string().min(1),
    tools: z.string().min(1).optional(),
    limits: z
      .object({ maxTurns: z.number().int().min(1).optional(), maxCost: z.number().positive().optional(), timeoutSeconds: z.number().positive().optional() })
      .strict()
      .optional(),
  })
  .strict();

export class SuiteError extends Error {
  override name = 'SuiteError';
}

/** Every `*.json` task file in `dir` (the id defaults to the file name), sorted by id. */
export function loadSuite(dir: string): EvalTask[] {
  const root = resolve(dir);
  if (!statSync(root, { throwIfNoEntry: false })?.isDirectory()) throw new SuiteError(`${dir}: no such suite directory.`);
  const files = readdirSync(root).filter((name) => name.endsWith('.json')).sort();
  if (!files.length) throw new SuiteError(`${dir}: no task files (*.json) in it.`);
  const tasks = files.map((name) => readTask(join(root, name)));
  const seen = new Set<string>();
  for (const task of tasks) {
    if (seen.has(task.id)) throw new SuiteError(`${dir}: two tasks are called "${task.id}".`);
    seen.add(task.id);
  }
  return tasks.sort((a, b) => a.id.localeCompare(b.id));
}

function readTask(path: string): EvalTask {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new SuiteError(`${path}: ${(error as Error).message}`);
  }
  const parsed = taskFileSchema.safeParse(raw);
  if (!parsed.success) throw new SuiteError(`${path}: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')}`);
  const file = parsed.data;
  const fixture = file.fixture === undefined ? undefined : resolve(path, '..', file.fixture);
  if (fixture !== undefined && !statSync(fixture, { throwIfNoEntry: false })?.isDirectory()) throw new SuiteError(`${path}: fixture ${file.fixture} is not a directory.`);
  return {
    id: file.id ?? basename(path, '.json'),
    prompt: file.prompt,
    suite: dirname(path),
    check: file.check,
    ...(fixture !== undefined ? { fixture } : {}),
    ...(file.tools !== undefined ? { tools: file.tools } : {}),
    limits: { ...DEFAULT_LIMITS, ...file.limits },
  };
}
