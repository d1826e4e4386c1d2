import { resolve } from 'node:path';
import type { ServerEntry } from '../../../mcp/server-spec.js';
import { serversClash } from '../../../mcp/tool-name.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';
import { serverTrustRequest } from '../../../trust/admit-project-server.js';
import { rememberedTrust } from '../../../trust/decide-trust.js';
import { unallowedSecretUses } from '../../../trust/secret-uses.js';
import { shellWord } from '../../../trust/server-question.js';
import { TrustStore } from '../../../trust/trust-store.js';
import type { CliArgs } from '../../args/cli-args.js';
import type { McpArgs } from './mcp-args.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { EXIT } from '../../settings/exit-codes.js';
import { checkServerName } from './mcp-entry.js';
import { configuredServers, userSettings } from './mcp-known-servers.js';
import { isSecretOption, maskArgument, maskKeysIn, maskValue } from './mcp-secret-values.js';
import { originWords } from './mcp-table.js';
import { UsageError } from '../../settings/usage-error.js';

/**
 * `mcp get NAME`: the entry a run would use (values that look like keys masked), the file it
 * comes from, and whether a run starts it; other definitions of the name, which a run skips.
 */
export async function mcpGetCommand(args: CliArgs & McpArgs, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  const words = args.mcpManage!.words;
  if (words.length !== 1 || args.mcpManage!.scope !== undefined) throw new UsageError('Usage: vibe-agent mcp get NAME');
  const name = words[0]!;
  const workspace = resolve(args.cwd ?? process.cwd());
  const skipped: string[] = [];
  const entries = configuredServers(workspace, env, (message) => {
    if (message.startsWith(`MCP server "${name}" in `)) skipped.push(message);
  });
  const index = entries.findIndex((entry) => entry.name === name);
  if (index < 0) {
    for (const message of skipped) safeStderr.write(`vibe-agent: ${message}\n`);
    checkServerName(name, 'vibe-agent mcp get NAME');
    safeStderr.write(`vibe-agent: no MCP server named "${name}" is configured; "vibe-agent mcp list" shows those that are.\n`);
    return EXIT.providerError;
  }
  const entry = entries[index]!;
  const lines = [name, `  from:    ${originWords(entry.origin)}`, ...specLines(entry), `  status:  ${await status(entry, entries.slice(0, index), workspace, env)}`];
  for (const message of skipped) lines.push(`  also:    ${message}`);
  safeStdout.write(`${lines.join('\n')}\n`);
  return EXIT.answered;
}

function specLines({ spec }: ServerEntry): string[] {
  const named = (label: string, values: Record<string, string>, separator: string) =>
    Object.entries(values).map(([key, value], at) => `  ${at === 0 ? label.padEnd(8) : '        '} ${key}${separator}${maskValue(key, value)}`);
  const limits = [
    ...(spec.toolTimeoutMs !== undefined ? [`  timeout: ${spec.toolTimeoutMs} ms per call`] : []),
    ...(spec.startupTimeoutMs !== undefined ? [`  start-up limit: ${spec.startupTimeoutMs} ms`] : []),
  ];
  if (spec.transport === 'stdio') {
    const words = [spec.command, ...spec.args];
    const command = words.map((word, at) => shellWord(maskArgument(word, at > 0 && isSecretOption(words[at - 1]!)))).join(' ');
    return ['  type:    stdio', `  command: ${command}`, ...(spec.cwd !== undefined ? [`  cwd:     ${spec.cwd}`] : []), ...named('env:', spec.env, '='), ...limits];
  }
  return [`  type:    ${spec.transport}`, `  url:     ${maskedUrl(spec.url)}`, ...named('headers:', spec.headers, ': '), ...limits];
}

/** The URL with the values of query parameters that look like keys masked. */
export function maskedUrl(url: string): string {
  try {
    const parsed = new URL(url);
    const unchanged = parsed.toString();
    for (const [key, value] of parsed.searchParams) parsed.searchParams.set(key, maskValue(key, value));
    if (parsed.password) parsed.password = '****';
    parsed.pathname = parsed.pathname.split('/').map((segment) => maskKeysIn(decodeURIComponent(segment)) === decodeURIComponent(segment) ? segment : '****').join('/');
    const shown = maskKeysIn(parsed.toString());
    return shown === unchanged ? url : shown;
  } catch {
    return maskKeysIn(url);
  }
}

/** Whether a run in this workspace starts the server, and why (see startConfiguredServers). */
async function status(entry: ServerEntry, earlier: ServerEntry[], workspace: string, env: NodeJS.ProcessEnv): Promise<string> {
  const clash = earlier.find((other) => serversClash(other.name, entry.name));
  if (clash) return `not started: its tools would be named like those of "${clash.name}" (${clash.origin.file}); rename one of them`;
  if (entry.origin.scope === 'user') return 'enabled; starts in every run (your own config)';
  const settings = await userSettings(env);
  const unallowed = unallowedSecretUses(entry.name, entry.spec, settings.mcpPassEnv ?? {});
  if (unallowed.length) return `not started: it would send your ${unallowed.map((use) => `${use.variable} to ${use.destination} (${use.place})`).join(', ')}; allow it with "mcpPassEnv" in your user config`;
  if (settings.trustProjectMcp) return 'enabled; starts without asking (trustProjectMcp in your user config)';
  const decision = rememberedTrust(new TrustStore(workspace, env), serverTrustRequest(entry));
  if (decision === true) return 'enabled; approved for this workspace';
  if (decision === false) return 'not started: you declined it for this workspace';
  return 'not approved yet: a run in a terminal asks once; without one it is skipped (or pass --trust-project-mcp)';
}
