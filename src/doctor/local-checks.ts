import { spawnSync } from 'node:child_process';
import type { BubblewrapStatus } from '../sandbox/detect-bubblewrap.js';
import type { ProbeResult } from './types.js';

/** A config file the CLI would read, and what is wrong with it (undefined: fine or absent). */
export interface ConfigFileCheck {
  path: string;
  found: boolean;
  error?: string;
}

export interface LocalFacts {
  nodeVersion: string;
  platform: NodeJS.Platform;
  stdoutIsTTY: boolean;
  env: NodeJS.ProcessEnv;
  configFiles: ConfigFileCheck[];
  /** Whether bubblewrap runs here (detectBubblewrap), asked only on Linux. */
  sandbox?: () => BubblewrapStatus;
}

/** This machine: what the tools and the terminal UI depend on. */
export function localChecks(facts: LocalFacts): ProbeResult[] {
  const major = Number(facts.nodeVersion.replace(/^v/, '').split('.')[0]);
  const results: ProbeResult[] = [
    { id: 'node', label: 'Node.js', status: major >= 20 ? 'pass' : 'fail', detail: major >= 20 ? facts.nodeVersion : `${facts.nodeVersion}: vibe-agent needs Node 20 or later` },
    commandCheck('rg', 'ripgrep (rg)', 'missing: grep falls back to a slower built-in search'),
    sandboxCheck(facts),
    terminal(facts),
  ];
  const found = facts.configFiles.filter((file) => file.found);
  const broken = facts.configFiles.filter((file) => file.error);
  results.push({
    id: 'config',
    label: 'config files',
    status: broken.length ? 'fail' : 'pass',
    detail: broken.length ? broken.map((file) => file.error).join('; ') : found.length ? found.map((file) => file.path).join(', ') : 'none (defaults, flags and environment only)',
  });
  return results;
}

/** The shell sandbox: bubblewrap found and allowed its user namespaces, or why not. */
function sandboxCheck(facts: LocalFacts): ProbeResult {
  const label = 'shell sandbox (bubblewrap)';
  if (facts.platform !== 'linux' || !facts.sandbox) return { id: 'sandbox', label, status: 'skip', detail: `not used on ${facts.platform}: shell commands run unsandboxed` };
  const status = facts.sandbox();
  if (status.ok) return { id: 'sandbox', label, status: 'pass', detail: `usable (${status.path}, user namespaces allowed): bash runs sandboxed unless --sandbox off` };
  return { id: 'sandbox', label, status: 'warn', detail: `unavailable: ${status.reason}. Shell commands run unsandboxed` };
}

function commandCheck(command: string, label: string, missing: string): ProbeResult {
  const ran = spawnSync(command, ['--version'], { encoding: 'utf8' });
  if (ran.error || ran.status !== 0) return { id: command, label, status: 'warn', detail: missing };
  return { id: command, label, status: 'pass', detail: ran.stdout.split('\n')[0]!.trim() };
}

function terminal(facts: LocalFacts): ProbeResult {
  const label = 'terminal';
  if (!facts.stdoutIsTTY) return { id: 'terminal', label, status: 'pass', detail: 'not a terminal (output piped): plain text, no interactive UI' };
  const colour = facts.env.NO_COLOR ? 'colour off (NO_COLOR)' : facts.env.COLORTERM ? `colour (${facts.env.COLORTERM})` : 'colour';
  const term = facts.env.TERM ?? 'unknown TERM';
  const dumb = term === 'dumb';
  return { id: 'terminal', label, status: dumb ? 'warn' : 'pass', detail: dumb ? 'TERM=dumb: the interactive UI needs cursor movement' : `${term}, ${colour}` };
}
