import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CancellationTokenSource, createMessageConnection, StreamMessageReader, StreamMessageWriter, type MessageConnection } from 'vscode-jsonrpc/node';
import type { ConfigurationParams, Diagnostic, InitializeParams, InitializeResult, PublishDiagnosticsParams, ServerCapabilities } from 'vscode-languageserver-protocol';
import { languageId, type ServerSpec } from './server-catalog.js';
import { BoundedMessages } from './bounded-messages.js';

export interface StartOptions {
  spec: ServerSpec;
  executable: string;
  workspace: string;
  env: NodeJS.ProcessEnv;
  /** For `initialize`, and the default for every request. */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** A request that failed: the server did not answer in time, the call was aborted, or it stopped. */
export class LspError extends Error {
  constructor(
    message: string,
    readonly kind: 'timeout' | 'aborted' | 'stopped' | 'error',
  ) {
    super(message);
  }
}

interface OpenDocument {
  version: number;
  text: string;
}

const STDERR_KEPT = 2000;
/** The most one message from a language server may hold (a project's references fit many times over). */
const MAX_MESSAGE_BYTES = 64 * 1024 * 1024;

/**
 * One running language server over stdio, spoken to through vscode-jsonrpc. It answers the
 * server's own requests (configuration, progress tokens, capability registration), keeps the
 * files it was shown in step with the disk, and bounds every request in time and by the caller's signal.
 */
export class LspClient {
  private readonly open = new Map<string, OpenDocument>();
  private readonly progress = new Set<string | number>();
  /** The diagnostics last published per file, and how many times they were. */
  private readonly published = new Map<string, { items: Diagnostic[]; count: number }>();
  private readonly publishWaiters = new Set<() => void>();
  private stderr = '';
  private exit: string | undefined;
  private overBudget: string | undefined;
  private readonly exited: Promise<void>;
  capabilities: ServerCapabilities = {};

  private constructor(
    private readonly spec: ServerSpec,
    private readonly child: ChildProcess,
    private readonly connection: MessageConnection,
    private readonly timeoutMs: number,
  ) {
    this.exited = new Promise((resolveExit) => child.once('exit', () => resolveExit()));
  }

  static async start(options: StartOptions): Promise<LspClient> {
    const { spec, workspace } = options;
    const child = spawn(options.executable, spec.args, { cwd: workspace, env: options.env, stdio: ['pipe', 'pipe', 'pipe'] });
    const stdout = child.stdout!.pipe(new BoundedMessages(spec.name, MAX_MESSAGE_BYTES));
    const connection = createMessageConnection(new StreamMessageReader(stdout), new StreamMessageWriter(child.stdin!));
    const client = new LspClient(spec, child, connection, options.timeoutMs);
    // A server past its byte budget is stopped; its requests fail naming why.
    stdout.on('error', (error) => {
      client.overBudget = error.message;
      child.kill('SIGKILL');
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      client.stderr = (client.stderr + chunk.toString('utf8')).slice(-STDERR_KEPT);
    });
    child.stdin!.on('error', () => undefined);
    const spawned = new Promise<void>((resolveSpawn, reject) => {
      child.once('spawn', resolveSpawn);
      child.once('error', (error) => reject(new LspError(`${spec.name} could not start: ${error.message}`, 'stopped')));
    });
    child.once('exit', (code, signal) => {
      client.exit = client.overBudget ?? (signal ? `killed by ${signal}` : `exit code ${code}`);
      connection.dispose();
    });
    client.answerServerRequests(workspace);
    connection.listen();
    try {
      await spawned;
      const folder = { uri: pathToFileURL(workspace).href, name: basename(workspace) };
      const params: InitializeParams = {
        processId: process.pid,
        clientInfo: { name: 'vibe-agent' },
        rootUri: folder.uri,
        workspaceFolders: [folder],
        capabilities: CLIENT_CAPABILITIES,
        ...(spec.initializationOptions !== undefined ? { initializationOptions: spec.initializationOptions } : {}),
      };
      const result = await client.request<InitializeResult>('initialize', params, options.signal);
      client.capabilities = result.capabilities ?? {};
      await connection.sendNotification('initialized', {});
      return client;
    } catch (error) {
      client.kill();
      throw error;
    }
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Whether the process is still there. */
  get alive(): boolean {
    return this.exit === undefined;
  }

  /** Why it stopped, with the end of what it wrote to stderr. */
  stoppedText(): string {
    const tail = this.stderr.trim().split('\n').slice(-5).join('\n');
    return `${this.spec.name} stopped (${this.exit ?? 'no answer'})${tail ? `; it said: ${tail}` : ''}`;
  }

  /** Sends a request; it is cancelled ($/cancelRequest) when `signal` aborts or the time runs out. */
  async request<R>(method: string, params: unknown, signal?: AbortSignal, timeoutMs = this.timeoutMs): Promise<R> {
    if (!this.alive) throw new LspError(this.stoppedText(), 'stopped');
    if (signal?.aborted) throw new LspError(`${method} was stopped with the call`, 'aborted');
    const cancel = new CancellationTokenSource();
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const stop = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new LspError(`${this.spec.name} did not answer ${method} within ${Math.round(timeoutMs / 100) / 10} s`, 'timeout')), timeoutMs);
      onAbort = () => reject(new LspError(`${method} was stopped with the call`, 'aborted'));
      signal?.addEventListener('abort', onAbort, { once: true });
      void this.exited.then(() => reject(new LspError(this.stoppedText(), 'stopped')));
    });
    try {
      return await Promise.race([this.connection.sendRequest<R>(method, params, cancel.token), stop]);
    } catch (error) {
      cancel.cancel();
      if (error instanceof LspError) throw error;
      if (!this.alive) throw new LspError(this.stoppedText(), 'stopped');
      throw new LspError(`${this.spec.name} refused ${method}: ${(error as Error).message}`, 'error');
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  }

  /** Shows the server the file as it is on disk now: opened the first time, changed when it differs. */
  async sync(absolute: string): Promise<void> {
    const text = await readFile(absolute, 'utf8');
    const uri = pathToFileURL(absolute).href;
    const known = this.open.get(absolute);
    if (!known) {
      this.open.set(absolute, { version: 1, text });
      await this.connection.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: languageId(extname(absolute).toLowerCase()), version: 1, text } });
    } else if (known.text !== text) {
      known.version++;
      known.text = text;
      await this.connection.sendNotification('textDocument/didChange', { textDocument: { uri, version: known.version }, contentChanges: [{ text }] });
    }
  }

  /** Every file shown so far brought up to date, so an answer reflects edits made since (by any tool). */
  async syncOpen(): Promise<void> {
    for (const absolute of [...this.open.keys()]) {
      await this.sync(absolute).catch(() => this.close(absolute));
    }
  }

  /** A file written by the agent: an open one is changed; another is announced as changed on disk. */
  async written(absolute: string, created: boolean): Promise<void> {
    if (!this.alive) return;
    if (this.open.has(absolute)) return this.sync(absolute);
    await this.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: pathToFileURL(absolute).href, type: created ? 1 : 2 }] });
  }

  private close(absolute: string): void {
    if (!this.open.delete(absolute) || !this.alive) return;
    void this.connection.sendNotification('textDocument/didClose', { textDocument: { uri: pathToFileURL(absolute).href } }).catch(() => undefined);
  }

  /** Whether the server has published diagnostics for any file yet. */
  get publishes(): boolean {
    return this.published.size > 0;
  }

  /** Whether the file was shown to the server (it publishes diagnostics for open files). */
  isOpen(absolute: string): boolean {
    return this.open.has(absolute);
  }

  /** The diagnostics last published for the file and their count so far; undefined before the first. */
  publishedFor(absolute: string): { items: Diagnostic[]; count: number } | undefined {
    return this.published.get(pathToFileURL(absolute).href);
  }

  /** The first diagnostics published for the file after its `count`-th publication; undefined after `timeoutMs` or an abort. */
  async nextPublication(absolute: string, count: number, timeoutMs: number, signal?: AbortSignal): Promise<Diagnostic[] | undefined> {
    const fresh = () => {
      const now = this.publishedFor(absolute);
      return now && now.count > count ? now.items : undefined;
    };
    if (fresh()) return fresh();
    return new Promise((resolveWait) => {
      const done = (items: Diagnostic[] | undefined) => {
        clearTimeout(timer);
        this.publishWaiters.delete(check);
        signal?.removeEventListener('abort', aborted);
        resolveWait(items);
      };
      const check = () => {
        const items = fresh();
        if (items) done(items);
      };
      const aborted = () => done(undefined);
      const timer = setTimeout(aborted, timeoutMs);
      signal?.addEventListener('abort', aborted, { once: true });
      this.publishWaiters.add(check);
    });
  }

  /** Work the server reports as under way ($/progress begun and not ended), e.g. indexing. */
  get busy(): boolean {
    return this.progress.size > 0;
  }

  /** Closes the files, asks the server to shut down and exit, and kills it if it does not within `graceMs`. */
  async shutdown(graceMs = 2000): Promise<void> {
    if (!this.alive) return;
    try {
      for (const absolute of [...this.open.keys()]) this.close(absolute);
      await this.request('shutdown', null, undefined, graceMs);
      await this.connection.sendNotification('exit');
    } catch {
      // A server that does not answer is stopped below.
    }
    const timer = setTimeout(() => this.kill(), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  kill(): void {
    if (this.alive) this.child.kill('SIGKILL');
  }

  private answerServerRequests(workspace: string): void {
    const folder = { uri: pathToFileURL(workspace).href, name: basename(workspace) };
    this.connection.onRequest('workspace/configuration', (params: ConfigurationParams) => params.items.map((item) => section(this.spec.settings, item.section)));
    this.connection.onRequest('workspace/workspaceFolders', () => [folder]);
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('client/unregisterCapability', () => null);
    this.connection.onRequest('window/showMessageRequest', () => null);
    this.connection.onRequest('window/showDocument', () => ({ success: false }));
    // Edits reach files only through the tool (its permission question, diff and checkpoints).
    this.connection.onRequest('workspace/applyEdit', () => ({ applied: false, failureReason: 'this client applies edits only through its own tools' }));
    this.connection.onNotification('$/progress', (params: { token: string | number; value?: { kind?: string } }) => {
      if (params.value?.kind === 'begin') this.progress.add(params.token);
      if (params.value?.kind === 'end') this.progress.delete(params.token);
    });
    this.connection.onNotification('textDocument/publishDiagnostics', (params: PublishDiagnosticsParams) => {
      this.published.set(params.uri, { items: params.diagnostics, count: (this.published.get(params.uri)?.count ?? 0) + 1 });
      for (const check of [...this.publishWaiters]) check();
    });
    this.connection.onNotification(() => undefined);
    this.connection.onError(() => undefined);
  }
}

/** A `workspace/configuration` section from the server's settings: `a.b` is settings.a.b, or settings["a.b"]. */
function section(settings: Record<string, unknown> | undefined, name: string | undefined): unknown {
  if (!settings) return null;
  if (name === undefined || name === '') return settings;
  if (name in settings) return settings[name];
  let value: unknown = settings;
  for (const part of name.split('.')) {
    if (typeof value !== 'object' || value === null || !(part in value)) return null;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

const CLIENT_CAPABILITIES: InitializeParams['capabilities'] = {
  general: { positionEncodings: ['utf-16'] },
  window: { workDoneProgress: true },
  workspace: {
    configuration: true,
    workspaceFolders: true,
    applyEdit: false,
    workspaceEdit: { documentChanges: true, resourceOperations: [] },
    symbol: {},
    didChangeWatchedFiles: { dynamicRegistration: false },
  },
  textDocument: {
    synchronization: { dynamicRegistration: false, didSave: false, willSave: false },
    definition: { linkSupport: true },
    typeDefinition: { linkSupport: true },
    implementation: { linkSupport: true },
    references: {},
    hover: { contentFormat: ['markdown', 'plaintext'] },
    documentSymbol: { hierarchicalDocumentSymbolSupport: true },
    callHierarchy: {},
    rename: { prepareSupport: true },
    publishDiagnostics: { relatedInformation: false },
  },
};
