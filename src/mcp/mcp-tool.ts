import { z } from 'zod';
import { checkWithZod } from '../tools/zod-check.js';
import type { Tool } from '../contracts/tool.js';
import type { ListedTool, McpConnection } from './mcp-connection.js';
import type { ServerOrigin } from './server-spec.js';
import { serverPrefix } from './tool-name.js';

export interface McpToolOptions {
  /** Our name for it, `mcp__<server>__<tool>`. */
  name: string;
  connection: McpConnection;
  /** Where the server was configured, shown when a call is asked about. */
  origin: ServerOrigin;
  listed: ListedTool;
  /**
   * Whether the server's `readOnlyHint` is believed: only for servers from the user's own
   * config; a repository's server declaring itself read-only would otherwise never be asked about.
   */
  trustReadOnly: boolean;
  timeoutMs: number | undefined;
}

const PREVIEW_ARGS = 400;

/** A server marks a tool never deferred by tool search with `_meta: {"vibe-agent/alwaysLoad": true}` (Claude Code's `anthropic/alwaysLoad` is read too). */
function alwaysLoaded(listed: ListedTool): boolean {
  const meta = listed._meta;
  return meta?.['vibe-agent/alwaysLoad'] === true || meta?.['anthropic/alwaysLoad'] === true;
}

/**
 * An MCP server's tool as one of ours: its JSON Schema passed through as written (each provider
 * adapter cleans it for its API), validated by the server, never by us. Permission: read when
 * the (trusted) server says it only reads, execute otherwise; rules name the tool or the whole
 * server as configured (`mcp__<server>__<tool>`, `mcp__<server>`: its identity, not the
 * sanitised name); there is no subject, so "always" grants the tool.
 */
export function mcpTool(options: McpToolOptions): Tool {
  const { name, connection, listed } = options;
  const readOnly = options.trustReadOnly && listed.annotations?.readOnlyHint === true;
  const description = listed.description?.trim() || `The "${listed.name}" tool of the MCP server "${connection.name}".`;
  const { $schema: _, ...parameters } = listed.inputSchema;
  return {
    name,
    description,
    checkArguments: (args) => checkWithZod(z.record(z.string(), z.unknown()), args),
    schema: { name, description, parameters: { type: 'object', ...parameters } },
    readOnly,
    needsApproval: !readOnly,
    permission: {
      category: readOnly ? 'read' : 'execute',
      identity: { name: `mcp__${connection.name}__${listed.name}`, group: `mcp__${connection.name}` },
      aliases: [serverPrefix(connection.name)],
    },
    timeoutMs: options.timeoutMs,
    search: { server: connection.name, tool: listed.name, ...(listed.title ? { title: listed.title } : {}), ...(alwaysLoaded(listed) ? { alwaysLoad: true } : {}) },
    execute: (args, context) => connection.callTool(listed.name, args as Record<string, unknown>, context.signal),
    preview: async (args) => {
      const text = JSON.stringify(args);
      return {
        summary: `${connection.name} › ${listed.name} ${text.length > PREVIEW_ARGS ? `${text.slice(0, PREVIEW_ARGS)}…` : text}`,
        detail: `MCP server "${connection.name}" from ${options.origin.file} (${options.origin.scope}).`,
      };
    },
  };
}
