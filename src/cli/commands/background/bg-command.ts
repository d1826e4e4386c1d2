import { resolve } from 'node:path';
import { agentEnvironment } from '../../../secrets/held-secrets.js';
import type { CliArgs } from '../../args/cli-args.js';
import { safeStdout } from '../../display/safe-output.js';
import { EXIT } from '../../settings/exit-codes.js';
import { UsageError } from '../../settings/usage-error.js';
import { addBackgroundEntry } from './background-registry.js';
import { ensureServer } from './server-address.js';
import { goalLine, promptTask, setGoal } from './bg-goal.js';
import { watchForEnd } from './notify-end.js';
import { createWorktree, repositoryRoot, type CreatedWorktree } from './worktree.js';

/** `vibe-agent --bg "task" [-w NAME]`: a session the server hosts, prompted, and this process returns. */
export async function bgCommand(args: CliArgs, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  const goal = args.goal?.trim();
  if (args.goal !== undefined && !goal) throw new UsageError('--goal needs a condition: --goal "npm test passes".');
  if (goal === undefined && (args.prompt === undefined || args.prompt.trim() === '')) throw new UsageError('--bg needs a task: vibe-agent --bg "what to do" (or --goal "CONDITION")');
  const cwd = resolve(args.cwd ?? process.cwd());
  const repo = args.background?.worktree !== undefined ? repositoryRoot(cwd) : cwd;
  let worktree: CreatedWorktree | undefined;
  if (args.background?.worktree !== undefined) worktree = createWorktree(repo, { name: args.background.worktree, task: args.prompt ?? goal ?? '', ...(args.background.base ? { baseRef: args.background.base } : {}) }, env);
  const server = await ensureServer(env);
  const workspace = worktree?.path ?? cwd;
  const created = await server.client.POST('/v1/sessions', {
    body: { workspace, ...(args.model ? { model: args.model } : {}), ...(args.provider ? { provider: args.provider } : {}), ...(args.permissionMode ? { permissionMode: args.permissionMode } : {}) },
  });
  if (!created.data) throw new Error(`the session server refused the session (${created.response.status}): ${created.error?.error ?? 'no reason given'}`);
  const id = created.data.id;
  const name = worktree?.name ?? id.slice(-8);
  addBackgroundEntry(env, {
    id,
    name,
    repo,
    workspace,
    createdAt: new Date().toISOString(),
    ...(worktree ? { worktree: worktree.path, branch: worktree.branch, base: worktree.base, included: worktree.included.map((entry) => entry.path) } : {}),
  });
  const started = goal === undefined ? await promptTask(server.client, id, args.prompt!) : await setGoal(server.client, id, goal, args);
  const notifies = watchForEnd(id, env);
  const lines = [`Started ${name} (session ${id}) in the background${server.started ? ` (the session server started: ${server.url})` : ''}.`];
  if (started.goal) lines.push(goalLine(started.goal));
  if (worktree) {
    lines.push(`Worktree ${worktree.path} on branch ${worktree.branch} from ${worktree.base.slice(0, 12)} (${worktree.baseRef === 'HEAD' ? `HEAD of ${repo}; another base: --base REF` : `--base ${worktree.baseRef}`}).`);
    for (const entry of worktree.included) lines.push(`  ${entry.how} ${entry.path} (.worktreeinclude)`);
    for (const skipped of worktree.skipped) lines.push(`  not brought over: ${skipped}`);
  }
  if (notifies) lines.push(`When it ends: a notification ${notifies}, and its report in vibe-agent agents.`);
  lines.push(`Follow it: vibe-agent logs ${name} -f · list: vibe-agent agents · stop: vibe-agent stop ${name}${worktree ? ` · land: vibe-agent land ${name}` : ''}`);
  if (args.json) safeStdout.write(`${JSON.stringify({ id, name, workspace, ...(started.goal ? { goal: started.goal } : {}), ...(worktree ? { worktree: worktree.path, branch: worktree.branch, base: worktree.base, included: worktree.included } : {}) })}\n`);
  else safeStdout.write(`${lines.join('\n')}\n`);
  return EXIT.answered;
}
