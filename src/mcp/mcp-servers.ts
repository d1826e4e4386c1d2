import { valueNesting } from '../contracts/bounded-json.js';
import type { ToolRegistry } from '../tools/registry.js';
import { expandSpec } from './expand-variables.js';
import { McpConnection, type ListedPrompt, type ListedResource, type ServerState } from './mcp-connection.js';
import { mcpTool } from './mcp-tool.js';
import type { OAuthOptions } from './oauth-provider.js';
import { mapPromptArguments, promptArgumentHint } from './prompt-arguments.js';
import { READ_RESOURCE_TOOL, readResourceTool } from './read-resource-tool.js';
import type { ServerEntry, ServerOrigin } from './server-spec.js';
import { mcpToolName, serverPrefix, serversClash } from './tool-name.js';

/**
 * A tool schema deeper than this is not offered: every provider adapter and SDK walks schemas
 * recursively (cleaning, converting, validating), and a server could send one nested 20,000 deep.
 * Real schemas stay within a dozen levels.
 */
const MAX_SCHEMA_DEPTH = 64;
import { agentEnvironment } from '../secrets/held-secrets.js';

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
  /** OAuth for HTTP servers that ask for it. */
  oauth?: OAuthOptions;
}

/** A server's prompt as the slash command `/mcp__<server>__<prompt>`. */
export interface McpPromptCommand {
  /** `mcp__<server>__<prompt>`, named like the tools. */
  name: string;
  /** `<file> [focus]`. */
  argumentHint: string;
  description: string | undefined;
  server: string;
  prompt: ListedPrompt;
}

export type ExpandedPrompt = { ok: true; prompt: string } | { ok: false; reason: string };

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
  /** Every server started or held, so that no two share a tool-name prefix. */
  private readonly claimed: ServerEntry[] = [];
  /** Our tool name → the server and its own name for the tool. */
  private readonly names = new Map<string, { server: string; tool: string }>();

  constructor(private readonly options: McpServersOptions) {}

  /**
   * Starts one server; `trusted` says whether its read-only hints are believed. A server whose
   * tools would be named like those of one already here (see serversClash) is not started, and
   * the warning says why: permission rules and the model could not tell the two apart.
   */
  start(entry: ServerEntry, trusted: boolean): void {
    const clash = this.clashes(entry);
    if (clash) {
      const reason = `its tools would be named ${serverPrefix(entry.name)}__…, like those of "${clash.name}" (${clash.origin.file}), so neither permission rules nor the model could tell them apart; rename one of them`;
      this.options.warn(`MCP server "${entry.name}" (${entry.origin.file}) not started: ${reason}.`);
      this.held.push({ entry, reason });
      return;
    }
    this.claimed.push(entry);
    const { spec, missing } = expandSpec(entry.spec, this.options.env ?? agentEnvironment());
    if (missing.length) this.options.warn(`MCP server "${entry.name}" (${entry.origin.file}): ${missing.join(', ')} ${missing.length === 1 ? 'is' : 'are'} not set; starting it with an empty value.`);
    const connection = new McpConnection(entry.name, spec, {
      clientVersion: this.options.clientVersion ?? '0.0.0',
      ...(this.options.startupTimeoutMs !== undefined ? { startupTimeoutMs: this.options.startupTimeoutMs } : {}),
      ...(this.options.oauth ? { oauth: this.options.oauth } : {}),
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

  /** A server that is configured but not started (not approved): shown by `mcp list` and /mcp. It keeps its name: a later server named like it is refused. */
  hold(entry: ServerEntry, reason: string): void {
    if (!this.clashes(entry)) this.claimed.push(entry);
    this.held.push({ entry, reason });
  }

  /** The server started or held before whose tools this one's would be named like, if any. */
  clashes(entry: ServerEntry): ServerEntry | undefined {
    return this.claimed.find((other) => serversClash(other.name, entry.name));
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

  /** Every ready server's prompts, as slash commands. */
  promptCommands(): McpPromptCommand[] {
    return this.ready().flatMap((connection) =>
      connection.prompts.map((prompt) => ({ name: mcpToolName(connection.name, prompt.name), argumentHint: promptArgumentHint(prompt), description: prompt.description, server: connection.name, prompt })),
    );
  }

  /** Every ready server's resources. */
  resources(): Array<ListedResource & { server: string }> {
    return this.ready().flatMap((connection) => connection.resources.map((resource) => ({ ...resource, server: connection.name })));
  }

  /**
   * `/mcp__<server>__<prompt> args` → the prompt's text from the server (undefined when the text
   * names no prompt). Waits up to `waitMs` for servers still starting: a one-shot run's prompt
   * may name a server that is not ready yet.
   */
  async expandPrompt(text: string, waitMs: number): Promise<ExpandedPrompt | undefined> {
    const match = /^\/(mcp__\S+)\s*([\s\S]*)$/.exec(text.trim());
    if (!match) return undefined;
    const find = () => this.promptCommands().find((command) => command.name === match[1]);
    if (!find()) await this.settled(waitMs);
    const command = find();
    if (!command) return undefined;
    const mapped = mapPromptArguments(command.prompt, match[2]!.trim());
    if (!mapped.ok) return { ok: false, reason: `/${command.name}: ${mapped.reason}` };
    const connection = this.ready().find((candidate) => candidate.name === command.server)!;
    try {
      return { ok: true, prompt: (await connection.getPrompt(command.prompt.name, mapped.args)).trim() };
    } catch (error) {
      return { ok: false, reason: `/${command.name}: the MCP server "${command.server}" did not give the prompt: ${(error as Error).message}` };
    }
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
  private ready(): McpConnection[] {
    return this.running.map((server) => server.connection).filter((connection) => connection.state === 'ready');
  }

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
      if (valueNesting(listed.inputSchema, MAX_SCHEMA_DEPTH) > MAX_SCHEMA_DEPTH) {
        this.options.warn(`MCP tool "${listed.name}" of "${entry.name}" not offered: its input schema is nested deeper than ${MAX_SCHEMA_DEPTH} levels.`);
        continue;
      }
      this.options.registry.register(mcpTool({ name, connection, origin: entry.origin, listed, trustReadOnly: trusted, timeoutMs }));
      this.names.set(name, { server: entry.name, tool: listed.name });
    }
    if (connection.resources.length && !this.options.registry.get(READ_RESOURCE_TOOL)) {
      this.options.registry.register(readResourceTool(() => this.ready()));
    }
  }
}
