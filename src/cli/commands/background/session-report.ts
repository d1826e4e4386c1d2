import type { ApiEvent } from '../../../server/api-schemas.js';
import type { BackgroundEntry } from './background-registry.js';
import { excludes, git as gitIn } from '../../../background/git.js';

/** What a background session did, told truthfully from its events and its worktree. */
export interface SessionReport {
  /** How its last run ended (the stop reason). */
  outcome: string;
  /** Files changed against its base (committed or not), with lines added and removed; null counts for binary files. */
  files: Array<{ path: string; added: number | null; removed: number | null }>;
  /** The shell commands it ran and how each ended: an exit code, or why it did not run. */
  commands: Array<{ command: string; exit: number | null; note?: string }>;
  /** What it did not do that a reader would want to know (nothing verified, denied calls). */
  notDone: string[];
  cost?: number;
  /** The commands that land or discard it. */
  next: string[];
}

/** The report of a session whose run has stopped (undefined while it has not). */
export function sessionReport(entry: BackgroundEntry, events: readonly ApiEvent[], cost: number | undefined): SessionReport | undefined {
  const stop = [...events].reverse().find((event) => event.type === 'stop') as { reason?: string } | undefined;
  if (!stop) return undefined;
  const calls = new Map<string, string>();
  const commands: SessionReport['commands'] = [];
  let denied = 0;
  for (const event of events) {
    const fields = event as { type: string; message?: { toolCalls?: Array<{ id: string; name: string; arguments: string }> }; id?: string; status?: string; isError?: boolean; output?: string };
    if (event.type === 'assistant_message') for (const call of fields.message?.toolCalls ?? []) if (call.name === 'bash') calls.set(call.id, commandOf(call.arguments));
    if (event.type !== 'tool_call_end') continue;
    if (fields.status === 'denied') denied++;
    const command = calls.get(fields.id ?? '');
    if (command === undefined) continue;
    const code = /exit code: (\d+)\s*$/.exec(fields.output ?? '')?.[1];
    if (fields.status && fields.status !== 'ok' && fields.status !== 'error') commands.push({ command, exit: null, note: `not run (${fields.status})` });
    else commands.push({ command, exit: code !== undefined ? Number(code) : fields.isError ? null : 0, ...(code === undefined && fields.isError ? { note: 'failed without an exit code' } : {}) });
  }
  const notDone: string[] = [];
  if (!commands.some((one) => one.exit === 0)) notDone.push('it verified nothing: no command it ran passed');
  if (denied) notDone.push(`${denied} call${denied === 1 ? ' was' : 's were'} denied`);
  const { files, uncounted } = changedFiles(entry);
  if (uncounted) notDone.push(uncounted);
  const next = entry.worktree ? [`vibe-agent land ${entry.name} --check "…"`, `vibe-agent land ${entry.name} --pr`, `vibe-agent discard ${entry.name}`] : [`its edits are in ${entry.workspace} already`];
  return { outcome: stop.reason ?? 'unknown', files, commands, notDone, ...(cost !== undefined ? { cost } : {}), next };
}

/** The command of a bash call's arguments (a JSON string as the model sent it). */
function commandOf(argumentsJson: string): string {
  try {
    const parsed = JSON.parse(argumentsJson) as { command?: unknown };
    return typeof parsed.command === 'string' ? parsed.command : argumentsJson;
  } catch {
    return argumentsJson;
  }
}

/**
 * Each git call is bounded: the server computes reports inside GET /v1/agents, on its one thread, so a git
 * that never ends would hold every request and session of the server. Past the bound the report says so.
 */
const GIT_WITHIN_MS = 10_000;

function changedFiles(entry: BackgroundEntry): { files: SessionReport['files']; uncounted?: string } {
  if (!entry.worktree || !entry.base) return { files: [] };
  const worktree = entry.worktree;
  let late: string | undefined;
  const git = (args: string[]) => {
    const result = gitIn(worktree, args, { timeoutMs: GIT_WITHIN_MS });
    if (result.status === null && !late) late = `its changed files are not all counted: git ${args[0]} did not end within ${GIT_WITHIN_MS / 1000} s`;
    return result;
  };
  const spec = ['--', '.', ...excludes(entry.included ?? [])];
  const tracked = git(['diff', '--numstat', '--no-renames', entry.base, ...spec]);
  const files = tracked.stdout.split('\n').filter(Boolean).map((line) => {
    const [added, removed, ...path] = line.split('\t');
    return { path: path.join('\t'), added: added === '-' ? null : Number(added), removed: removed === '-' ? null : Number(removed) };
  });
  const untracked = git(['ls-files', '--others', '--exclude-standard', ...spec]).stdout.split('\n').filter(Boolean);
  for (const path of untracked) {
    if (late) break;
    const counted = git(['diff', '--no-index', '--numstat', '/dev/null', path]).stdout.split('\t');
    files.push({ path, added: counted[0] === '-' || counted[0] === undefined ? null : Number(counted[0]), removed: 0 });
  }
  return { files, ...(late ? { uncounted: late } : {}) };
}

/** The report as lines for the terminal. */
export function formatReport(name: string, report: SessionReport): string[] {
  const count = (n: number | null) => (n === null ? 'binary' : String(n));
  const lines = [`${name} ended (${report.outcome})${report.cost !== undefined ? `, cost $${report.cost.toFixed(4)}` : ''}.`];
  lines.push(report.files.length ? `  changed: ${report.files.map((file) => `${file.path} (+${count(file.added)} -${count(file.removed)})`).join(', ')}` : '  changed no file');
  for (const command of report.commands) lines.push(`  ran: ${command.command.replace(/\s+/g, ' ').slice(0, 100)} → ${command.note ?? `exit ${command.exit}`}`);
  for (const missing of report.notDone) lines.push(`  note: ${missing}`);
  lines.push(`  next: ${report.next.join(' · ')}`);
  return lines;
}
