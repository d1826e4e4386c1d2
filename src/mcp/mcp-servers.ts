import type { ToolRegistry } from '../tools/registry.js';
import { expandSpec } from './expand-variables.js';
import { McpConnection, type ServerState } from './mcp-connection.js';
import { mcpTool } from './mcp-tool.js';
import type { ServerEntry, ServerOrigin } from './server-spec.js';
import { mcpToolName } from './tool-name.js';

export interface ServerStatus {
  name: string;
  origin: ServerOrigin;
  state: ServerState | 'not approved';
  tools: number;
  startedAt?: Date;
  startMs?: number;
  /** Why it failed, or why it was not started. */
  error?: string;
}

export interface McpServersOptions {
  /** The registry the servers' tools join as each server becomes ready. */
  registry: ToolRegistry;
  warn(message: string): void;
  clientVersion?: string;
  env?: NodeJS.ProcessEnv;
  startupTimeoutMs?: number;
}

interface Running {
  entry: ServerEntry;
  connection: McpConnection;
  /** When it started (or failed): every server's start is awaited by `settled`. */
  ready: Promise<void>;
}

/**
 * The configured MCP servers of a run: all started at once, in the background; each one's tools
 * join the registry when it is ready, so a slow server's tools arrive at a later turn. A server
 * that fails is a warning, never an error of the run.
 */
export class McpServers {
  private readonly running: Running[] = [];
  private readonly held: Array<{ entry: ServerEntry; reason: string }> = [];
  /** Our tool name → the server and its own name for the tool. */
  private readonly names = new Map<string, { server: string; tool: string }>();

  constructor(private readonly options: McpServersOptions) {}

  /** Starts one server; `trusted` says whether its read-only hints are believed. */
  start(entry: ServerEntry, trusted: boolean): void {
    const { spec, missing } = expandSpec(entry.spec, this.options.env ?? process.env);
    if (missing.length) this.options.warn(`MCP server "${entry.name}" (${entry.origin.file}): ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set; starting it with an empty value.`);
    const connection = new McpConnection(entry.name, spec, {
      clientVersion: this.options.clientVersion ?? '0.0.0',
      ...(this.options.startupTimeoutMs !== undefined ? { startupTimeoutMs: this.options.startupTimeoutMs } : {}),
      onCrash: (message) => this.options.warn(message),
      onRestarted: () => this.register(entry, connection, trusted, spec.toolTimeoutMs),
      onToolsChanged: () => this.register(entry, connection, trusted, spec.toolTimeoutMs),
    });
    const ready = connection.start().then(() => {
      if (connection.state === 'failed') this.options.warn(`MCP server "${entry.name}" (${entry.origin.file}) did not start: ${connection.error}. The run goes on without its tools.`);
      this.register(entry, connection, trusted, spec.toolTimeoutMs);
    });
    this.running.push({ entry, connection, ready });
  }

  /** A server that is configured but not started (not approved): shown by `mcp list` and /mcp. */
  hold(entry: ServerEntry, reason: string): void {
    this.held.push({ entry, reason });
  }

  /** Resolves once every server has started or failed, or after `ms`, whichever is first. */
  async settled(ms: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.running.map((server) => server.ready)), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
    clearTimeout(timer);
  }

  status(): ServerStatus[] {
    return [
      ...this.running.map(({ entry, connection }): ServerStatus => ({
        name: entry.name,
        origin: entry.origin,
        state: connection.state,
        tools: connection.state === 'ready' ? connection.tools.length : 0,
        ...(connection.startedAt ? { startedAt: connection.startedAt } : {}),
        ...(connection.startMs !== undefined ? { startMs: connection.startMs } : {}),
        ...(connection.error ? { error: connection.error } : {}),
      })),
      ...this.held.map(({ entry, reason }): ServerStatus => ({ name: entry.name, origin: entry.origin, state: 'not approved', tools: 0, error: reason })),
    ];
  }

  /** The server and the server's own tool name behind one of our `mcp__…` names. */
  toolOrigin(name: string): { server: string; tool: string } | undefined {
    return this.names.get(name);
  }

  /** Stops every server (stdio processes end; HTTP sessions are closed). */
  async close(): Promise<void> {
    await Promise.all(this.running.map(({ connection }) => connection.stop()));
  }

  /**
   * Puts the server's current tool list in the registry, replacing what it listed before (a
   * restart or `tools/list_changed` may add, change or remove tools). Only schemas go to the
   * model, per request: the system prompt names no MCP tool, so it stays byte-identical.
   */
  private register(entry: ServerEntry, connection: McpConnection, trusted: boolean, timeoutMs: number | undefined): void {
    if (connection.state !== 'ready') return;
    for (const [name, known] of this.names) {
      if (known.server !== entry.name) continue;
      this.options.registry.unregister(name);
      this.names.delete(name);
    }
    for (const listed of connection.tools) {
      const name = mcpToolName(entry.name, listed.name);
      const known = this.names.get(name);
      if (known || this.options.registry.get(name)) {
        this.options.warn(`MCP tool "${listed.name}" of "${entry.name}" left out: its name ${name} is taken${known ? ` by "${known.tool}" of "${known.server}"` : ''}.`);
        continue;
      }
      this.options.registry.register(mcpTool({ name, connection, listed, trustReadOnly: trusted, timeoutMs }));
      this.names.set(name, { server: entry.name, tool: listed.name });
    }
  }
}
