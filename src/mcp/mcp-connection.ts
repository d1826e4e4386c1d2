import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { errorText } from '../contracts/error-text.js';
import { resultText } from './result-text.js';
import { LoopbackOAuthProvider, type OAuthOptions } from './oauth-provider.js';
import { mcpClientSdk, type McpClientSdk } from './client-sdk.js';
import { StdioTransport } from './stdio-transport.js';
import { boundedFetch, DEFAULT_REPLY_BUDGET } from '../contracts/bounded-fetch.js';
import { ByteBudgetError } from '../contracts/byte-budget.js';
import type { ServerSpec } from './server-spec.js';
import { childEnvironment } from '../tools/coding/shell/shell-env.js';
import { stderrSummary } from './stderr-summary.js';

export type ServerState = 'starting' | 'ready' | 'failed' | 'stopped';

export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  title?: string;
  annotations?: { readOnlyHint?: boolean };
  _meta?: Record<string, unknown>;
}

export interface ListedPrompt {
  name: string;
  description?: string;
  arguments?: Array<{ name: string; description?: string; required?: boolean }>;
}

export interface ListedResource {
  uri: string;
  name: string;
  description?: string;
  mimeType?: string;
}

export interface ConnectionOptions {
  clientVersion: string;
  /** Default 30 s; a server's own `startupTimeoutMs` wins. */
  startupTimeoutMs?: number;
  /** Reports a crash and what was done about it (a restart, or none after the second). */
  onCrash?(message: string): void;
  /** After a restart that worked: its tool list may have changed. */
  onRestarted?(): void;
  /** OAuth for HTTP servers that answer 401 (absent: such a server fails to start). */
  oauth?: OAuthOptions;
  /** The server sent `notifications/tools/list_changed` and `tools` holds its new list. */
  onToolsChanged?(): void;
}

const DEFAULT_STARTUP_MS = 30_000;
/** A longer message is dropped (the call fails); shorter ones are read whole and capped by the registry. */
const MAX_LINE_BYTES = 128 * 1024 * 1024;
/** The registry's time limit (through the signal) is the one that applies to a call. */
const NO_SDK_TIMEOUT = 24 * 60 * 60 * 1000;
/** How long stopping waits for an HTTP server to acknowledge the end of its session. */
const END_SESSION_MS = 2_000;

/**
 * One MCP server: started (connect, initialize, list tools) with a time limit, called through
 * the SDK client, restarted once after a crash. Every failure is a message, never a hang.
 */
export class McpConnection {
  state: ServerState = 'starting';
  error: string | undefined;
  startedAt: Date | undefined;
  /** How long the last start took, in ms. */
  startMs: number | undefined;
  tools: ListedTool[] = [];
  /** Empty when the server offers none (or listing them failed: they are extras, not a reason to fail). */
  prompts: ListedPrompt[] = [];
  resources: ListedResource[] = [];
  restarts = 0;
  private client: Client | undefined;
  /** A re-listing after `tools/list_changed`; a call's result waits for it (see callTool). */
  private refreshing: Promise<void> | undefined;
  private starting: Promise<void> | undefined;
  private stopping = false;
  private stderrTail = '';
  private protocolError: string | undefined;
  /** Fails a start in progress at once: the server sent past its byte budget, so the answer it owes will never come whole. */
  private overBudget: ((error: Error) => void) | undefined;
  /** The transport being connected, closed when the start fails or times out. */
  private opening: Transport | undefined;
  /** An HTTP server's OAuth provider and the transport it signs, for an authorization asked for mid-call (a scope step-up). */
  private oauth: { provider: LoopbackOAuthProvider; transport: { finishAuth(code: string): Promise<void> } } | undefined;

  constructor(
    readonly name: string,
    private readonly spec: ServerSpec,
    private readonly options: ConnectionOptions,
  ) {}

  /** Resolves when the server is ready or has failed (see `state` and `error`); never rejects. */
  start(): Promise<void> {
    this.starting ??= this.connect().finally(() => (this.starting = undefined));
    return this.starting;
  }

  async callTool(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<{ output: string; isError: boolean }> {
    if (this.starting) await this.starting;
    const client = this.client;
    if (this.state !== 'ready' || !client) return { output: `The MCP server "${this.name}" is not running${this.error ? `: ${this.error}` : ''}.`, isError: true };
    try {
      const result = await this.withAuthorization(() => client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: NO_SDK_TIMEOUT }), signal);
      // A server that changed its tools during the call said so before answering: the new list
      // is in the registry before the loop builds its next request.
      if (this.refreshing) await this.refreshing;
      return { output: resultText(result as { content?: unknown; structuredContent?: unknown }), isError: result.isError === true };
    } catch (error) {
      if (signal.aborted) throw error;
      const state = this.state as ServerState;
      if (client !== this.client || state !== 'ready') {
        return { output: `The MCP server "${this.name}" exited during the call${this.detail()}. ${state === 'failed' ? 'It is not running any more.' : 'It is being restarted; call again only if repeating the action is safe.'}`, isError: true };
      }
      return { output: `The MCP server "${this.name}" answered with an error: ${errorText(error)}`, isError: true };
    }
  }

  /**
   * An operation an HTTP server refuses until the user signs in (401), or signs in again for a
   * wider scope (403 insufficient_scope), sends the user to the browser as at start-up; once the
   * browser brings the code back, the operation is made once more.
   */
  private async withAuthorization<T>(operation: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      const sdk = await mcpClientSdk();
      if (!(error instanceof sdk.UnauthorizedError) || !this.oauth?.provider.authorizing) throw error;
      await this.completeAuthorization(signal);
      return operation();
    }
  }

  /** Waits for the browser's code (the start-up limit, or until `signal`), exchanges it, closes the loopback listener. */
  private async completeAuthorization(signal?: AbortSignal): Promise<void> {
    const { provider, transport } = this.oauth!;
    try {
      await transport.finishAuth(await provider.waitForCode(this.spec.startupTimeoutMs ?? this.options.startupTimeoutMs ?? DEFAULT_STARTUP_MS, signal));
    } finally {
      provider.close();
    }
  }

  /** The messages of one of the server's prompts, as text; throws with the server's complaint. */
  async getPrompt(name: string, args: Record<string, string>): Promise<string> {
    const client = await this.readyClient();
    const result = await client.getPrompt({ name, arguments: args });
    return result.messages.map((message) => resultText({ content: [message.content] })).join('\n\n');
  }

  /** One resource's contents, as text (binary ones described); throws with the server's complaint. */
  async readResource(uri: string, signal?: AbortSignal): Promise<string> {
    const client = await this.readyClient();
    const result = await client.readResource({ uri }, { ...(signal ? { signal } : {}), timeout: NO_SDK_TIMEOUT });
    return resultText({ content: result.contents.map((resource) => ({ type: 'resource', resource })) });
  }

  private async readyClient(): Promise<Client> {
    if (this.starting) await this.starting;
    if (this.state !== 'ready' || !this.client) throw new Error(`the MCP server "${this.name}" is not running${this.error ? `: ${this.error}` : ''}`);
    return this.client;
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.state = 'stopped';
    const client = this.client;
    this.client = undefined;
    this.oauth?.provider.close();
    if (client) await endHttpSession(client);
    await Promise.all([client?.close(), this.opening?.close()].map((closing) => closing?.catch(() => {})));
  }

  private async connect(): Promise<void> {
    this.state = 'starting';
    this.error = undefined;
    this.protocolError = undefined;
    const began = performance.now();
    const limit = this.spec.startupTimeoutMs ?? this.options.startupTimeoutMs ?? DEFAULT_STARTUP_MS;
    let timer: NodeJS.Timeout | undefined;
    let client: Client | undefined;
    try {
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`it did not finish starting within ${Math.round(limit / 1000)} s`)), limit);
        this.overBudget = reject;
      });
      const sdk = await mcpClientSdk();
      const attempt = (async () => {
        const opened = (client = await this.openClient(sdk));
        return { tools: await this.withAuthorization(() => listAllTools(opened)), ...(await listExtras(opened)) };
      })();
      const { tools, prompts, resources } = await Promise.race([attempt, deadline]);
      if (this.stopping) {
        await client?.close().catch(() => {});
        return;
      }
      this.tools = tools;
      this.prompts = prompts;
      this.resources = resources;
      this.client = client;
      this.state = 'ready';
      this.startedAt = new Date();
      this.startMs = Math.round(performance.now() - began);
      client!.onclose = () => this.onClosed(client!);
      const listening = client!;
      listening.setNotificationHandler(sdk.ToolListChangedNotificationSchema, () => {
        this.refreshing = this.refreshTools(listening).finally(() => (this.refreshing = undefined));
      });
    } catch (error) {
      await (client as Client | undefined)?.close().catch(() => {});
      await this.opening?.close().catch(() => {});
      if (this.stopping) return;
      this.state = 'failed';
      this.error = `${errorText(error)}${this.detail(errorText(error))}`;
    } finally {
      this.overBudget = undefined;
      clearTimeout(timer);
      this.opening = undefined;
    }
  }

  private async openClient(sdk: McpClientSdk): Promise<Client> {
    const spec = this.spec;
    if (spec.transport === 'stdio') return this.attach(sdk, this.stdioTransport(spec, sdk));
    const { SSEClientTransport, StreamableHTTPClientTransport } = sdk;
    // Each message bounded as it arrives, at a model reply's budgets (a session's event stream stays open, so only its events are).
    const fetch = boundedFetch(`MCP server "${this.name}"`, { maxEventBytes: DEFAULT_REPLY_BUDGET.maxEventBytes, maxReplyBytes: Infinity, maxBodyBytes: DEFAULT_REPLY_BUDGET.maxReplyBytes });
    if (spec.transport === 'sse') return this.attach(sdk, new SSEClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers }, fetch }));
    // A server given its own Authorization header is not sent through OAuth.
    const ownAuthorization = Object.keys(spec.headers ?? {}).some((name) => name.toLowerCase() === 'authorization');
    const authProvider = this.options.oauth && !ownAuthorization ? new LoopbackOAuthProvider(spec.url, this.options.oauth) : undefined;
    const streamable = () => {
      const transport = new StreamableHTTPClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers }, fetch, ...(authProvider ? { authProvider } : {}) });
      if (authProvider) this.oauth = { provider: authProvider, transport };
      return transport;
    };
    try {
      return await this.attach(sdk, streamable());
    } catch (error) {
      if (authProvider && error instanceof sdk.UnauthorizedError) {
        // The browser was sent to the authorization server; its redirect brings the code back.
        await this.completeAuthorization();
        return this.attach(sdk, streamable());
      }
      // Older servers speak only the HTTP+SSE transport: the MCP specification's fallback.
      try {
        return await this.attach(sdk, new SSEClientTransport(new URL(spec.url), { requestInit: { headers: spec.headers }, fetch }));
      } catch {
        throw error;
      }
    }
  }

  private stdioTransport(spec: Extract<ServerSpec, { transport: 'stdio' }>, sdk: McpClientSdk): StdioTransport {
    const env = Object.fromEntries(Object.entries({ ...childEnvironment(process.env), ...spec.env }).filter((pair): pair is [string, string] => pair[1] !== undefined));
    return new StdioTransport({
      command: spec.command,
      args: spec.args,
      env,
      ...(spec.cwd ? { cwd: spec.cwd } : {}),
      maxLineBytes: MAX_LINE_BYTES,
      messageSchema: sdk.JSONRPCMessageSchema,
      // Kept for messages about why it failed, never shown while it works.
      onStderr: (text) => (this.stderrTail = (this.stderrTail + text).slice(-2000)),
    });
  }

  private async attach(sdk: McpClientSdk, transport: Transport): Promise<Client> {
    const client = new sdk.Client({ name: 'vibe-agent', version: this.options.clientVersion });
    client.onerror = (error) => {
      this.protocolError = errorText(error);
      // The SDK reports a stream it lost this way (as text: "SSE stream disconnected: ByteBudgetError: …") and waits on.
      if (error instanceof ByteBudgetError || error.cause instanceof ByteBudgetError || error.message.includes('ByteBudgetError: ')) this.overBudget?.(new Error(this.protocolError.replace(/^.*ByteBudgetError: /, '')));
    };
    this.opening = transport;
    try {
      await client.connect(transport);
    } catch (error) {
      await transport.close().catch(() => {});
      throw error;
    }
    return client;
  }

  private async refreshTools(client: Client): Promise<void> {
    await this.refreshing;
    try {
      const tools = await listAllTools(client);
      if (client !== this.client) return;
      this.tools = tools;
      this.options.onToolsChanged?.();
    } catch (error) {
      this.protocolError = `re-listing its tools failed: ${errorText(error)}`;
    }
  }

  private onClosed(client: Client): void {
    if (this.stopping || client !== this.client) return;
    this.client = undefined;
    if (this.restarts >= 1) {
      this.state = 'failed';
      this.error = `it exited again after a restart${this.detail()}`;
      this.options.onCrash?.(`MCP server "${this.name}" exited again after a restart; its tools now answer with an error.${this.detail()}`);
      return;
    }
    this.restarts++;
    this.options.onCrash?.(`MCP server "${this.name}" exited${this.detail()}; restarting it once.`);
    void this.start().then(() => (this.state === 'ready' ? this.options.onRestarted?.() : undefined));
  }

  /** What the server said last, for a failure message. */
  private detail(already = ''): string {
    const parts: string[] = [];
    if (this.protocolError && !already.includes(this.protocolError) && !(already !== '' && this.protocolError.endsWith(already))) parts.push(`last protocol error: ${this.protocolError}`);
    const stderr = stderrSummary(this.stderrTail);
    if (stderr) parts.push(`stderr: ${stderr}`);
    return parts.length ? ` (${parts.join('; ')})` : '';
  }
}

/**
 * A streamable HTTP server keeps a session per client until told it is over (the specification's
 * DELETE, which the SDK sends only when asked): without it every run left one behind. A server
 * that does not answer in time is left as it is; closing the client then aborts the request.
 */
async function endHttpSession(client: Client): Promise<void> {
  const transport = client.transport as (Transport & { terminateSession?: () => Promise<void> }) | undefined;
  if (typeof transport?.terminateSession !== 'function') return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, END_SESSION_MS)));
  await Promise.race([transport.terminateSession().catch(() => {}), late]);
  clearTimeout(timer);
}

async function listAllTools(client: Client): Promise<ListedTool[]> {
  const tools: ListedTool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    tools.push(...(page.tools as ListedTool[]));
    cursor = page.nextCursor;
  } while (cursor);
  return tools;
}

async function listExtras(client: Client): Promise<{ prompts: ListedPrompt[]; resources: ListedResource[] }> {
  const offers = client.getServerCapabilities() ?? {};
  const [prompts, resources] = await Promise.all([
    offers.prompts ? client.listPrompts().then((page) => page.prompts as ListedPrompt[], () => []) : [],
    offers.resources ? client.listResources().then((page) => page.resources as ListedResource[], () => []) : [],
  ]);
  return { prompts, resources };
}
