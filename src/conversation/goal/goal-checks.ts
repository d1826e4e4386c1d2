import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { insideWorkspacePaths } from '../../permissions/persistence-paths.js';
import { isSecretPath } from '../../workspace/secret-files.js';
import { readOwnTextAsync, RefusedFileError } from '../../workspace/read-own-file.js';
import type { CheckRun } from './goal-types.js';

/** Runs one check the judge asked for; never throws (a failure is the check's output). */
export type CheckRunner = (name: string) => Promise<CheckRun>;

export interface CheckSetup {
  workspace: string;
  /** The commands the judge may run, exactly as written (`npm test`, `git status`): the user's choice. */
  allowed: readonly string[];
  /** The shell sandbox's wrapping with the workspace read-only (absent: the user turned the sandbox off). */
  wrap?: (argv: string[], cwd: string) => string[];
  env: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

const MAX_OUTPUT = 4000;
const MAX_FILE_LINES = 400;
/** A file the judge reads is read whole up to this, like any file the agent opens on its own. */
const MAX_FILE_BYTES = 4 << 20;

/**
 * The judge's read-only checks: a command from the allowed list (split on spaces, no shell, so
 * nothing in it is interpreted), run in the workspace through the sandbox with the workspace
 * read-only, or `read:PATH` (a file inside the workspace, not a secret, with numbered lines).
 * Anything else is refused without running.
 */
export function createCheckRunner(setup: CheckSetup): CheckRunner {
  return async (name) => {
    if (name.startsWith('read:')) return readCheck(name, name.slice(5).trim(), setup.workspace);
    if (!setup.allowed.includes(name)) return { name, exitCode: -1, output: `refused: not an allowed check; the checks are ${[...setup.allowed, 'read:PATH'].join(', ')}` };
    const argv = name.split(/\s+/).filter(Boolean);
    const wrapped = setup.wrap ? setup.wrap(argv, setup.workspace) : argv;
    return new Promise<CheckRun>((done) => {
      execFile(wrapped[0]!, wrapped.slice(1), { cwd: setup.workspace, timeout: setup.timeoutMs ?? 300_000, maxBuffer: 8 << 20, env: { ...setup.env, CI: '1', GIT_TERMINAL_PROMPT: '0' } }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : -1) : 0;
        const output = `${stdout}${stderr ? `\n${stderr}` : ''}`.trim();
        done({ name, exitCode: code, output: tail(error && code === -1 ? `${output}\n${error.message}` : output) });
      });
    });
  };
}

async function readCheck(name: string, path: string, workspace: string): Promise<CheckRun> {
  if (path === '' || !insideWorkspacePaths([path], workspace)) return { name, exitCode: -1, output: 'refused: the file is outside the workspace' };
  if (isSecretPath(path)) return { name, exitCode: -1, output: 'refused: the file may hold secrets' };
  try {
    // The one opener: where the path really leads must be inside the workspace and not a secret (a link `notes -> .env` is refused), a regular file, capped.
    const text = await readOwnTextAsync(resolve(workspace, path), { within: [workspace], maxBytes: MAX_FILE_BYTES, refuseSecrets: true });
    const lines = text.split('\n').slice(0, MAX_FILE_LINES);
    return { name, exitCode: 0, lines, output: tail(lines.map((line, index) => `${index + 1}: ${line}`).join('\n')) };
  } catch (error) {
    return { name, exitCode: -1, output: error instanceof RefusedFileError ? `refused: ${path} ${error.reason}` : `failed: ${(error as Error).message}` };
  }
}

/** The end of the output is kept: a test runner's summary comes last. */
function tail(text: string): string {
  return text.length <= MAX_OUTPUT ? text : `…[cut]\n${text.slice(-MAX_OUTPUT)}`;
}
