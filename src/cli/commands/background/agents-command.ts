import { agentEnvironment } from '../../../secrets/held-secrets.js';
import type { CliArgs } from '../../args/cli-args.js';
import { safeStdout } from '../../display/safe-output.js';
import { visibleText } from '../../display/visible-text.js';
import { EXIT } from '../../settings/exit-codes.js';
import { fetchAgentRows, type AgentRow } from './agent-status.js';
import { goalLine } from './bg-goal.js';
import { readBackgroundEntries } from './background-registry.js';
import { formatReport } from './session-report.js';
import { findServer } from './server-address.js';
import { removeWorktreeIfSafe } from './worktree.js';
import { formatCost } from '../../display/format-cost.js';
import { openLivePage } from './page-command.js';

/** `vibe-agent agents [--json] [--prune]`: every background session, its state and where it works. */
export async function agentsCommand(args: CliArgs & { agents?: { prune: boolean; page?: boolean; noOpen?: boolean } }, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  if (args.agents?.page) return openLivePage(args.agents.noOpen === true, env);
  const server = await findServer(env);
  const rows = await fetchAgentRows(readBackgroundEntries(env).filter((entry) => !entry.discarded), server);
  const lines: string[] = [];
  if (args.agents?.prune) lines.push(...prune(rows, env));
  if (args.json) {
    safeStdout.write(`${JSON.stringify({ server: server ? { url: server.url, pid: server.pid } : null, agents: rows })}\n`);
    return EXIT.answered;
  }
  if (!rows.length) lines.push('No background sessions. Start one: vibe-agent --bg "task" [-w NAME]');
  for (const row of rows) lines.push(describeRow(row), ...(row.report ? formatReport(row.name, row.report).slice(1) : []));
  if (!server && rows.length) lines.push('(the session server is not running: every session shows as stopped)');
  safeStdout.write(`${lines.join('\n')}\n`);
  return EXIT.answered;
}

function describeRow(row: AgentRow): string {
  const where = row.worktree ? `${row.worktree} (${row.branch})` : row.workspace;
  const cost = row.cost === undefined ? '' : ` · ${formatCost(row.cost)}`;
  const last = row.lastEvent ? ` · last: ${row.lastEvent.type}${row.lastEvent.summary ? ` ${row.lastEvent.summary}` : ''}` : '';
  const asks = row.pendingApprovals.map((ask) => `\n    waiting for approval ${ask.requestId}: ${visibleText(ask.tool)} ${visibleText(ask.summary)} (vibe-agent approve ${row.name})`).join('');
  const goal = row.goal ? `\n    ${goalLine(row.goal)}` : '';
  return `${row.name.padEnd(14)} ${row.state.padEnd(9)} ${row.id}  ${where}${cost}${last}${row.landed ? ` · landed ${row.landed}` : ''}${row.problem ? ` · ${row.problem}` : ''}${goal}${asks}`;
}

/**
 * Removes the worktrees of sessions that are not running and hold nothing that would be lost
 * (uncommitted changes, commits on no other branch); says what it kept and why.
 */
function prune(rows: AgentRow[], env: NodeJS.ProcessEnv): string[] {
  void env;
  const lines: string[] = [];
  for (const row of rows) {
    if (!row.worktree) continue;
    if (row.state === 'working' || row.state === 'needs you') {
      lines.push(`kept ${row.worktree}: ${row.name} is ${row.state}`);
      continue;
    }
    const outcome = removeWorktreeIfSafe(row.repo, row.worktree, row.branch, row.included ?? [], row.landed ? [row.landed] : []);
    lines.push(outcome.removed ? `removed ${row.worktree} (nothing in it was unsaved)` : `kept ${row.worktree}: it holds ${outcome.kept!.join(' and ')}`);
  }
  return lines;
}
