import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { projectFileWriteRefusal } from '../../../memory/memory-write-refusal.js';
import { forgetFacts, readOrEmpty } from '../../../memory/memory-file.js';
import { displayPath, memoryPath, type MemoryScope } from '../../../memory/memory-paths.js';
import { collectMemorySources } from '../../../memory/memory-sources.js';
import { UsageError, type CliArgs } from '../../args/cli-args.js';
import type { MemoryArgs } from './memory-args.js';
import { EXIT } from '../../settings/exit-codes.js';
import { safeStdout, safeStderr } from '../../display/safe-output.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';

/** `vibe-agent memory [edit | forget TEXT] [--user]`. */
export function memoryCommand(args: CliArgs & MemoryArgs, env: NodeJS.ProcessEnv = agentEnvironment()): number {
  const workspace = resolve(args.cwd ?? process.cwd());
  const [action, ...rest] = args.memoryArgs ?? [];
  const scope: MemoryScope = args.user ? 'user' : 'project';
  if (action === undefined) return showMemory(workspace, env);
  if (action === 'edit') return editMemory(memoryPath(scope, workspace, env), env);
  if (action === 'forget') {
    const text = rest.join(' ').trim();
    if (!text) throw new UsageError('Say what to forget: vibe-agent memory forget TEXT [--user]');
    const path = memoryPath(scope, workspace, env);
    // The same rule as the remember tool: a repository's symlinked memory.md never leads the rewrite elsewhere.
    const refusal = scope === 'project' ? projectFileWriteRefusal(path, workspace) : undefined;
    if (refusal) throw new UsageError(refusal.replace('Not remembered', 'Not changed'));
    const removed = forgetFacts(path, text);
    if (removed.length === 0) {
      // The command was well formed; there was just nothing to remove (a usage error would be exit 2).
      safeStderr.write(`vibe-agent: no memory entry matches "${text}" in ${displayPath(path, env)}; nothing was forgotten.\n`);
      return EXIT.providerError;
    }
    safeStdout.write(`Forgot ${removed.length} fact${removed.length > 1 ? 's' : ''} from ${displayPath(path, env)}:\n${removed.map((f) => `- ${f}`).join('\n')}\n`);
    return EXIT.answered;
  }
  throw new UsageError(`Unknown memory action "${action}". Use: vibe-agent memory | memory edit [--user] | memory forget TEXT [--user]`);
}

function showMemory(workspace: string, env: NodeJS.ProcessEnv): number {
  const out: string[] = [];
  for (const scope of ['project', 'user'] as const) {
    const path = memoryPath(scope, workspace, env);
    const text = readOrEmpty(path).trimEnd();
    out.push(`== ${scope === 'project' ? 'Project' : 'User'} memory: ${displayPath(path, env)}${text ? '' : ' (empty)'}`);
    if (text) out.push(text);
    out.push('');
  }
  const instructions = collectMemorySources({ workspace, cwd: process.cwd(), env }).filter((source) => source.kind === 'instructions');
  out.push(`== Instruction files loaded into the system prompt: ${instructions.length ? '' : 'none'}`);
  for (const source of instructions) out.push(`  ${displayPath(source.path, env)}`);
  safeStdout.write(`${out.join('\n')}\n`);
  return EXIT.answered;
}

function editMemory(path: string, env: NodeJS.ProcessEnv): number {
  const editor = env.VISUAL || env.EDITOR;
  if (!editor || !process.stdin.isTTY || !process.stdout.isTTY) {
    safeStdout.write(`${path}\n`);
    if (!editor) safeStderr.write('vibe-agent: set EDITOR to open it here; the path is printed above.\n');
    return EXIT.answered;
  }
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '');
  }
  // Through the shell, so EDITOR may carry arguments ("code --wait").
  const result = spawnSync(`${editor} "$VIBE_MEMORY_FILE"`, { shell: true, stdio: 'inherit', env: { ...env, VIBE_MEMORY_FILE: path } });
  if (result.status !== 0) {
    safeStderr.write(`vibe-agent: the editor exited with ${result.status ?? result.signal}.\n`);
    return EXIT.providerError;
  }
  return EXIT.answered;
}
