import { resolve } from 'node:path';
import { agentEnvironment } from '../secrets/held-secrets.js';
import type { CliArgs } from './args.js';
import { safeStderr, safeStdout } from './display/safe-output.js';
import { EXIT } from './exit-codes.js';
import { editableFiles, readServersFile, withServer, writeAtomically } from './mcp-config-file.js';
import { checkScope } from './mcp-entry.js';
import { configuredServers } from './mcp-known-servers.js';
import { UsageError } from './usage-error.js';

/**
 * `mcp remove NAME [--scope user|project]`: takes the entry out of the files of the named scope,
 * or of the only scope that has it (two scopes without --scope is a usage error). Only our files
 * and `.mcp.json` are edited; a server from Gemini CLI's or Codex's files is named, not touched.
 */
export async function mcpRemoveCommand(args: CliArgs, env: NodeJS.ProcessEnv = agentEnvironment()): Promise<number> {
  const manage = args.mcpManage!;
  if (manage.words.length !== 1 || manage.transport !== undefined || manage.env.length || manage.headers.length || manage.command !== undefined) {
    throw new UsageError('Usage: vibe-agent mcp remove NAME [--scope user|project]');
  }
  const name = manage.words[0]!;
  const scope = manage.scope === undefined ? undefined : checkScope(manage.scope);
  const workspace = resolve(args.cwd ?? process.cwd());
  const holding = editableFiles(workspace, env)
    .filter((file) => scope === undefined || file.scope === scope)
    .map(readServersFile)
    .filter((read) => Object.hasOwn(read.servers, name));
  if (holding.length === 0) {
    const elsewhere = configuredServers(workspace, env).find((entry) => entry.name === name);
    const where = elsewhere ? `; it is defined in ${elsewhere.origin.file}, which vibe-agent reads but does not edit` : scope ? ` in the ${scope} scope` : '';
    safeStderr.write(`vibe-agent: no MCP server named "${name}" to remove${where}.\n`);
    return EXIT.providerError;
  }
  const scopes = [...new Set(holding.map((read) => read.file.scope))];
  if (scopes.length > 1) throw new UsageError(`"${name}" is in both scopes (${holding.map((read) => read.file.path).join(', ')}); say which with --scope user or --scope project.`);
  for (const read of holding) {
    writeAtomically(read.file.path, withServer(readServersFile(read.file), name, undefined));
    safeStdout.write(`removed ${name} from ${read.file.path} (${read.file.scope})\n`);
  }
  return EXIT.answered;
}
