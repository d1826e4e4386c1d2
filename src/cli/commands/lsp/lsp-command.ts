import { resolve } from 'node:path';
import { lookUpServers, workspaceExtensions, type ServerLookup } from '../../../lsp/find-servers.js';
import { serverTrust } from '../../../lsp/server-trust.js';
import { TrustStore } from '../../../trust/trust-store.js';
import type { CliArgs } from '../../args/cli-args.js';
import { loadConfig, readProjectConfig } from '../../settings/config.js';
import { EXIT } from '../../settings/exit-codes.js';
import { resolveSettings } from '../../setup/resolve-settings.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';

/**
 * `vibe-agent lsp`: every language server entry (the user's, the project's, the built-in ones),
 * whether it would be used for this workspace, and why not. Starts nothing and asks nothing.
 */
export async function lspCommand(args: CliArgs, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const workspace = resolve(args.cwd ?? process.cwd());
  const warnings: string[] = [];
  const warn = (message: string) => warnings.push(message);
  const project = await readProjectConfig(workspace, warn);
  const settings = resolveSettings(args, env, await loadConfig(workspace, env, warn, project)).values;
  const present = workspaceExtensions(workspace);
  const store = new TrustStore(workspace, env);
  const lines: string[] = [];
  const answered = new Set<string>();
  const lookups = lookUpServers({ workspace, env, userServers: settings.lspServers, ...(project.config.lspServers ? { projectServers: project.config.lspServers } : {}), warn });
  for (const lookup of lookups) {
    const { spec, found } = lookup;
    const head = `${spec.name} (${spec.language}, ${spec.origin})`;
    if (!found) {
      lines.push(`${head}: not found — ${lookup.missing}`);
      continue;
    }
    if (!spec.extensions.some((ext) => present.has(ext))) {
      lines.push(`${head}: found at ${found.executable}, not used — no ${spec.extensions.join(' ')} files in this workspace`);
      continue;
    }
    const taken = spec.extensions.filter((ext) => answered.has(ext));
    if (taken.length === spec.extensions.length) {
      lines.push(`${head}: found at ${found.executable}, not used — an earlier server answers for its files`);
      continue;
    }
    let state = 'used';
    if (found.fromProject && !settings.trustProjectMcp) {
      const request = serverTrust(found);
      const decision = store.decision(request.key, { question: request.question, config: request.config });
      state = decision === true ? 'used (approved for this workspace)' : decision === false ? 'not used — you declined it for this workspace' : 'runs code from this repository: asked about at the next run in a terminal (or --trust-project-mcp)';
    }
    if (state.startsWith('used')) for (const ext of spec.extensions) answered.add(ext);
    lines.push(`${head}: ${found.executable} — ${state}`);
  }
  lines.push(...missingServers(lookups, present, answered));
  safeStdout.write(`${lines.join('\n')}\n`);
  for (const message of warnings) safeStderr.write(`vibe-agent: warning: ${message}\n`);
  return EXIT.answered;
}

/** For the workspace's kinds of file that no server answers and whose built-in servers are all missing: what to install. */
function missingServers(lookups: readonly ServerLookup[], present: ReadonlySet<string>, answered: ReadonlySet<string>): string[] {
  const lines: string[] = [];
  const told = new Set<string>();
  for (const { spec } of lookups) {
    if (spec.origin !== 'built-in' || !spec.install || told.has(spec.language)) continue;
    const unanswered = spec.extensions.filter((ext) => present.has(ext) && !answered.has(ext));
    const sameLanguage = lookups.filter((other) => other.spec.origin === 'built-in' && other.spec.language === spec.language);
    if (!unanswered.length || sameLanguage.some((other) => other.found)) continue;
    told.add(spec.language);
    lines.push(`No language server for this workspace's ${unanswered.join(' ')} files, so code_nav is off for them: install ${spec.name} with: ${spec.install}`);
  }
  return lines;
}
