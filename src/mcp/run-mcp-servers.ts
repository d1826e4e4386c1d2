import type { ExpandedPrompt, McpPromptCommand, McpServers, ServerStatus } from './mcp-servers.js';
import type { ListedResource } from './mcp-connection.js';
import type { ServerEntry } from './server-spec.js';

/** What a run uses of its MCP servers. */
export type RunMcpServers = Pick<McpServers, 'start' | 'hold' | 'settled' | 'status' | 'promptCommands' | 'resources' | 'expandPrompt' | 'close'>;

/**
 * A run's MCP servers when none is configured: nothing of the MCP client (its SDK, transports,
 * OAuth) is loaded. A server added later (an editor's, over ACP) loads it then and starts there.
 * Only types are imported here, so this module costs a run nothing.
 */
export class DeferredMcpServers implements RunMcpServers {
  private loading: Promise<McpServers> | undefined;
  private loaded: McpServers | undefined;
  /** Starts and holds asked for before the client was loaded, done once it is. */
  private pending: Promise<void> = Promise.resolve();

  constructor(private readonly create: () => Promise<McpServers>) {}

  start(entry: ServerEntry, trusted: boolean): void {
    this.later((servers) => servers.start(entry, trusted));
  }

  hold(entry: ServerEntry, reason: string): void {
    this.later((servers) => servers.hold(entry, reason));
  }

  async settled(ms: number): Promise<void> {
    await (await this.servers())?.settled(ms);
  }

  status(): ServerStatus[] {
    return this.loaded?.status() ?? [];
  }

  promptCommands(): McpPromptCommand[] {
    return this.loaded?.promptCommands() ?? [];
  }

  resources(): Array<ListedResource & { server: string }> {
    return this.loaded?.resources() ?? [];
  }

  async expandPrompt(text: string, waitMs: number): Promise<ExpandedPrompt | undefined> {
    return (await this.servers())?.expandPrompt(text, waitMs);
  }

  async close(): Promise<void> {
    await (await this.servers())?.close();
  }

  private later(action: (servers: McpServers) => void): void {
    this.loading ??= this.create().then((servers) => (this.loaded = servers));
    const loading = this.loading;
    this.pending = this.pending.then(async () => action(await loading));
  }

  /** The loaded servers once every pending start is done; undefined when none was ever asked for. */
  private async servers(): Promise<McpServers | undefined> {
    await this.pending;
    return this.loaded;
  }
}
