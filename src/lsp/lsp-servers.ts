import { LspClient, LspError } from './lsp-client.js';
import { serverFor, type FoundServer } from './find-servers.js';

export interface LspServersOptions {
  /** The servers admitted for this run, best first per language. */
  found: readonly FoundServer[];
  workspace: string;
  /** The servers' environment (the user's keys already taken out). */
  env: NodeJS.ProcessEnv;
  /** Per request (and for start-up); default 30 s. */
  timeoutMs?: number;
}

export const DEFAULT_LSP_TIMEOUT_MS = 30_000;

interface Slot {
  starting?: Promise<LspClient>;
  client?: LspClient;
  restarts: number;
  /** Set once it failed after its one restart: every later call gets this error at once. */
  failed?: string;
}

/**
 * The run's language servers, started at their first question: one per server entry, shared by
 * every file it answers for. A server that stops is started again once; stopping again, it is
 * reported as an error for the rest of the run. Shut down with `close`.
 */
export class LspServers {
  private readonly slots = new Map<FoundServer, Slot>();
  private readonly timeoutMs: number;

  constructor(private readonly options: LspServersOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_LSP_TIMEOUT_MS;
  }

  /** The server answering for this file, or undefined when none was found for its kind. */
  serverFor(absolute: string): FoundServer | undefined {
    return serverFor(this.options.found, absolute);
  }

  get found(): readonly FoundServer[] {
    return this.options.found;
  }

  /**
   * Runs `ask` with the file's server, the file and every file it was shown brought up to date
   * first. A server that stopped (before or during the question) is restarted once and asked again.
   */
  async ask<R>(server: FoundServer, files: readonly string[], signal: AbortSignal, ask: (client: LspClient) => Promise<R>): Promise<R> {
    for (let attempt = 0; ; attempt++) {
      const client = await this.client(server, signal);
      try {
        await client.syncOpen();
        for (const file of files) await client.sync(file);
        return await ask(client);
      } catch (error) {
        if (!(error instanceof LspError) || error.kind !== 'stopped' || attempt > 0) throw error;
      }
    }
  }

  /** The running server that has this file open (and so publishes its diagnostics), if any. */
  openClient(absolute: string): { client: LspClient; server: FoundServer } | undefined {
    const server = this.serverFor(absolute);
    const client = server && this.slots.get(server)?.client;
    return server && client?.alive && client.isOpen(absolute) ? { client, server } : undefined;
  }

  /** A file the agent wrote: each running server that answers for its kind hears of it. */
  async written(absolute: string, created: boolean): Promise<void> {
    const server = this.serverFor(absolute);
    const client = server && this.slots.get(server)?.client;
    if (client?.alive) await client.written(absolute, created).catch(() => undefined);
  }

  /** The process ids of the servers running now. */
  runningPids(): number[] {
    return [...this.slots.values()].flatMap((slot) => (slot.client?.alive && slot.client.pid !== undefined ? [slot.client.pid] : []));
  }

  /** Asks every running server to shut down and exit; kills those that do not. */
  async close(): Promise<void> {
    const clients = [...this.slots.values()].map((slot) => slot.client).filter((client): client is LspClient => client !== undefined);
    this.slots.clear();
    await Promise.all(clients.map((client) => client.shutdown()));
  }

  private async client(server: FoundServer, signal: AbortSignal): Promise<LspClient> {
    let slot = this.slots.get(server);
    if (!slot) this.slots.set(server, (slot = { restarts: 0 }));
    if (slot.failed) throw new LspError(slot.failed, 'stopped');
    if (slot.client?.alive) return slot.client;
    if (slot.client && !slot.client.alive) {
      const why = slot.client.stoppedText();
      slot.client = undefined;
      if (slot.restarts >= 1) {
        slot.failed = `${why}; it had been restarted once already, so it is not used again this session (use grep and read_file instead)`;
        throw new LspError(slot.failed, 'stopped');
      }
      slot.restarts++;
    }
    slot.starting ??= LspClient.start({ spec: server.spec, executable: server.executable, workspace: this.options.workspace, env: this.options.env, timeoutMs: server.spec.timeoutMs ?? this.timeoutMs, signal });
    const starting = slot.starting;
    try {
      slot.client = await starting;
      return slot.client;
    } catch (error) {
      if (error instanceof LspError && error.kind === 'aborted') throw error;
      // A server that cannot start (or initialize in time) is not tried again this session.
      slot.failed = `${server.spec.name} (${server.executable}) did not start: ${(error as Error).message}`;
      throw new LspError(slot.failed, 'stopped');
    } finally {
      if (slot.starting === starting) slot.starting = undefined;
    }
  }
}
