import { resolve } from 'node:path';
import { serverPrefix, serversClash } from '../mcp/tool-name.js';
import type { ServerEntry } from '../mcp/server-spec.js';
import { agentEnvironment } from '../secrets/held-secrets.js';
import { serverTrustRequest } from '../trust/admit-project-server.js';
import { rememberTrust } from '../trust/decide-trust.js';
import { unallowedSecretUses } from '../trust/secret-uses.js';
import { TrustStore } from '../trust/trust-store.js';
import type { CliArgs } from './args.js';
import { safeStderr, safeStdout } from './display/safe-output.js';
import { EXIT } from './exit-codes.js';
import { fileForScope, readServersFile, withServer, writeAtomically } from './mcp-config-file.js';
import { addedServer, jsonServer, type NewServer } from './mcp-entry.js';
import { configuredServers, userSettings } from './mcp-known-servers.js';
import { looksSecret, variableFor } from './mcp-secret-values.js';
import { originWords } from './mcp-table.js';
import { verifyServer } from './mcp-verify.js';

/** How many tool names the report spells out. */
const SHOWN_TOOLS = 20;

/**
 * `mcp add` and `mcp add-json`: checks the name and the entry, starts the server and lists its
 * tools (unless --no-verify), and only then writes the entry into the scope's file, leaving every
 * other byte of it as it was. A project server added here is recorded as approved for this
 * workspace: the user has just chosen it, so the next run starts it without asking.
 */
export async function mcpAddCommand(args: CliArgs, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  const manage = args.mcpManage!;
  const server = manage.action === 'add-json' ? jsonServer(manage) : addedServer(manage);
  const workspace = resolve(args.cwd ?? process.cwd());
  const file = fileForScope(server.scope, workspace, env);
  const warn = (message: string) => safeStderr.write(`vibe-agent: warning: ${message}\n`);
  const refuse = (message: string) => {
    safeStderr.write(`vibe-agent: ${message}\n`);
    return EXIT.providerError;
  };
  const before = readServersFile(file);
  const replacing = Object.hasOwn(before.servers, server.name);
  if (replacing && !manage.force) return refuse(`"${server.name}" is already in ${file.path}; use --force to replace it, or "vibe-agent mcp remove ${server.name}" first.`);
  const conflict = nameConflict(server, file.path, configuredServers(workspace, env));
  if (conflict) return refuse(conflict);
  const entry: ServerEntry = { name: server.name, spec: server.spec, origin: { scope: server.scope, file: file.path, format: file.format } };
  if (server.scope === 'project') {
    const unallowed = unallowedSecretUses(server.name, server.spec, (await userSettings(env)).mcpPassEnv ?? {});
    if (unallowed.length) {
      const variables = [...new Set(unallowed.map((use) => use.variable))];
      return refuse(
        `a project server that sends your ${variables.join(', ')} is not started by a run unless your user config allows it, so nothing was written. ` +
          `Allow it first in ${fileForScope('user', workspace, env).path}: ${JSON.stringify({ mcpPassEnv: { [server.name]: variables } })}, or add it with --scope user.`,
      );
    }
  }
  for (const line of secretWarnings(server, file.path)) warn(line);
  const kind = `${server.name} (${server.spec.transport})`;
  let report = `${replacing ? 'replaced' : 'added'} ${kind}: not started (--no-verify)`;
  if (manage.verify) {
    const verified = await verifyServer(server.name, server.spec, env, '0.0.0', warn);
    if (!verified.ok) return refuse(`${kind} did not start: ${verified.error}\nNothing was written to ${file.path}. Fix the command or URL, or add it anyway with --no-verify.`);
    const names = verified.tools.slice(0, SHOWN_TOOLS).join(', ') + (verified.tools.length > SHOWN_TOOLS ? ', …' : '');
    report = `${replacing ? 'replaced' : 'added'} ${kind}: ${verified.tools.length} tool${verified.tools.length === 1 ? '' : 's'}${names ? `: ${names}` : ''}`;
  }
  // Read again: the file may have been edited while the server was starting.
  writeAtomically(file.path, withServer(readServersFile(file), server.name, server.entry), server.scope === 'user' ? 0o600 : 0o644);
  if (server.scope === 'project') rememberTrust(new TrustStore(workspace, env), serverTrustRequest(entry), true);
  safeStdout.write(`${report}\n  in ${originWords(entry.origin)}${server.scope === 'project' ? ' (approved for this workspace)' : ''}\n`);
  return EXIT.answered;
}

/** Why the name cannot be used: another file defines it, or its tools would be named like another server's. */
function nameConflict(server: NewServer, target: string, known: ServerEntry[]): string | undefined {
  const same = known.find((entry) => entry.name === server.name && entry.origin.file !== target);
  if (same) return `"${server.name}" is already configured in ${same.origin.file} (${same.origin.scope}); one name, one server: remove it there first or choose another name.`;
  const clash = known.find((entry) => entry.name !== server.name && serversClash(entry.name, server.name));
  if (clash) return `"${server.name}" would give tools named ${serverPrefix(server.name)}__…, like those of "${clash.name}" (${clash.origin.file}); choose another name.`;
  return undefined;
}

/** One warning per literal value that looks like a key: it lands in a file as written. */
function secretWarnings(server: NewServer, file: string): string[] {
  const entry = server.entry as { env?: Record<string, unknown>; headers?: Record<string, unknown> };
  const shared = server.scope === 'project' ? ', a file usually committed to the repository' : '';
  const found = [
    ...Object.entries(entry.env ?? {}).map(([name, value]) => ({ flag: '-e', name, value, separator: '=' })),
    ...Object.entries(entry.headers ?? {}).map(([name, value]) => ({ flag: '--header', name, value, separator: ': ' })),
  ].filter((item): item is typeof item & { value: string } => typeof item.value === 'string' && looksSecret(item.name, item.value));
  return found.map(({ flag, name, value, separator }) => {
    const variable = variableFor(server.name, name);
    const scheme = /^(Bearer|Basic|Token)\s+/i.exec(value)?.[0] ?? '';
    return `${flag} ${name} looks like a secret; it is written as is to ${file}${shared}. Prefer a variable: export ${variable}=… in your shell and pass ${flag} '${name}${separator}${scheme}\${${variable}}' (single quotes keep the shell from expanding it).`;
  });
}
