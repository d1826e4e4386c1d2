/**
 * No CLI vocabulary below the CLI: the layers under `src/cli/` return facts (an event's `setting`,
 * a ConfigError's `problem`) and the CLI words them with its flags. This scans the code (comments
 * left out) of every file below the CLI for the CLI's own flags. The files that still name one
 * are listed with why; the list may only shrink (a file that no longer names a flag fails too).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SETTINGS } from '../src/cli/settings/settings.js';

const SRC = join(import.meta.dirname, '..', 'src');

/** Text the model reads (it tells the user the flag) or a diagnostic of its own, still to be moved up. */
const KNOWN: Record<string, string> = {
  'workspace/resolve-path.ts': 'a refusal the model reads, so it can tell the user about --add-dir',
  'sandbox/bubblewrap-sandbox.ts': 'a note after a failed command, for the model to pass on',
  'sandbox/shell-sandbox-setup.ts': 'a start-up warning',
  'permissions/permission-policy.ts': 'a refusal the model reads',
  'lsp/code-nav-setup.ts': 'why project language servers did not start',
  'providers/shared/idle-timer.ts': 'a first-byte timeout error',
  'doctor/local-checks.ts': 'a doctor check line',
  'doctor/recommend.ts': 'a doctor recommendation',
  'doctor/render-report.ts': 'the doctor report',
  'tools/builtin/fetch-url.ts': 'a refusal the model reads',
  'trace/build-trace.ts': "the trace page names the window's source",
  // These speak the CLI's language on purpose: they run it, parse its arguments, or refuse a command that turns its sandbox off.
  'eval/run-job.ts': 'runs each task through the built CLI',
  'secrets/held-secrets.ts': "finds --api-key values in the process's arguments",
  'permissions/hard-deny.ts': 'refuses a command that would start the agent without its sandbox',
};

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');

describe('CLI words stay in the CLI', () => {
  it('no file below src/cli names one of the CLI flags, but the listed ones', () => {
    const flags = Object.values(SETTINGS).flatMap((row) => ('flag' in row && typeof row.flag === 'string' ? [row.flag] : []));
    expect(flags).toContain('context-window');
    const pattern = new RegExp(`--(${flags.map((flag) => flag.replace(/-/g, '\\-')).join('|')})(?![\\w-])`);
    const naming = sources(SRC)
      .map((path) => relative(SRC, path))
      .filter((path) => !path.startsWith('cli/') && path !== 'index.ts')
      .filter((path) => pattern.test(code(readFileSync(join(SRC, path), 'utf8'))))
      .sort();
    expect(naming).toEqual(Object.keys(KNOWN).sort());
  });

  it('the scan finds a flag added on purpose, and leaves one in a comment alone', () => {
    const pattern = /--(context-window)(?![\w-])/;
    expect(pattern.test(code("const hint = 'tell the agent with --context-window';"))).toBe(true);
    expect(pattern.test(code('/** see --context-window */\nconst x = 1;\n// --context-window'))).toBe(false);
  });
});
