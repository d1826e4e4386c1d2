import { expandSpec } from '../mcp/expand-variables.js';
import type { ServerSpec } from '../mcp/server-spec.js';
import { mcpOAuthOptions } from './mcp-oauth-options.js';

export type Verified = { ok: true; tools: string[]; ms: number } | { ok: false; error: string };

/**
 * Starts the server as a run would (variables expanded from `env`, the same client and
 * transports, its start-up limit, OAuth's sign-in for a server that asks: the token is kept for
 * the runs), lists its tools, and stops it. Never throws.
 */
export async function verifyServer(name: string, spec: ServerSpec, env: NodeJS.ProcessEnv, version: string, warn: (message: string) => void): Promise<Verified> {
  const { spec: expanded, missing } = expandSpec(spec, env);
  if (missing.length) warn(`${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set; the server is started with an empty value.`);
  const { McpConnection } = await import('../mcp/mcp-connection.js');
  const oauth = mcpOAuthOptions(env, process.stdin.isTTY === true && process.stderr.isTTY === true, warn);
  const connection = new McpConnection(name, expanded, { clientVersion: version, oauth });
  try {
    await connection.start();
    if (connection.state !== 'ready') return { ok: false, error: connection.error ?? `it ended in state ${connection.state}` };
    return { ok: true, tools: connection.tools.map((tool) => tool.name), ms: connection.startMs ?? 0 };
  } finally {
    await connection.stop();
  }
}
