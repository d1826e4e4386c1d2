import { createHash, randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

export interface OAuthOptions {
  /** Tokens and the registered client are kept in `<dataDir>/mcp-oauth/`, 0600. */
  dataDir: string;
  /** Opens the authorization URL in the browser (only with a terminal to come back to). */
  openBrowser: boolean;
  /** Shows the URL to visit, whether or not a browser was opened. */
  announce(url: string): void;
}

interface Stored {
  client?: OAuthClientInformationMixed;
  tokens?: OAuthTokens;
  verifier?: string;
}

/**
 * OAuth 2.1 for one HTTP server, with the SDK's flow (discovery from the 401's
 * resource-metadata pointer, dynamic client registration, authorization code + PKCE, refresh):
 * this supplies what the flow needs from a CLI. The browser comes back to a listener on a
 * 127.0.0.1 port, started only when an authorization is needed.
 */
export class LoopbackOAuthProvider implements OAuthClientProvider {
  private listener: Server | undefined;
  private port = 0;
  private expectedState = '';
  private arrived: { resolve(code: string): void; reject(error: Error): void } | undefined;
  private code: Promise<string> | undefined;
  private readonly file: string;

  constructor(
    serverUrl: string,
    private readonly options: OAuthOptions,
  ) {
    const key = createHash('sha256').update(serverUrl).digest('hex').slice(0, 24);
    this.file = join(options.dataDir, 'mcp-oauth', `${key}.json`);
  }

  get redirectUrl(): string {
    return `http://127.0.0.1:${this.port}/callback`;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'vibe-agent', redirect_uris: [this.redirectUrl], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' };
  }

  state(): string {
    this.expectedState = randomBytes(16).toString('hex');
    return this.expectedState;
  }

  /** Asked first when an authorization starts: the loopback listener starts here, so its port is known. */
  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    const client = this.read().client;
    // A refresh needs no redirect: only a fresh authorization starts the listener.
    if (client && this.read().tokens?.refresh_token && !this.listener) return client;
    await this.listen();
    // Registered with another run's port: registered again, with this one.
    return client && 'redirect_uris' in client && (client.redirect_uris as string[]).includes(this.redirectUrl) ? client : undefined;
  }

  saveClientInformation(client: OAuthClientInformationMixed): void {
    this.write({ ...this.read(), client });
  }

  tokens(): OAuthTokens | undefined {
    return this.read().tokens;
  }

  saveTokens(tokens: OAuthTokens): void {
    this.write({ ...this.read(), tokens });
  }

  saveCodeVerifier(verifier: string): void {
    this.write({ ...this.read(), verifier });
  }

  codeVerifier(): string {
    const verifier = this.read().verifier;
    if (!verifier) throw new Error('no PKCE code verifier was saved for this authorization');
    return verifier;
  }

  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void {
    const stored = this.read();
    if (scope === 'all') return rmSync(this.file, { force: true });
    if (scope === 'client') delete stored.client;
    if (scope === 'tokens') delete stored.tokens;
    if (scope === 'verifier') delete stored.verifier;
    this.write(stored);
  }

  redirectToAuthorization(url: URL): void {
    this.options.announce(url.href);
    if (!this.options.openBrowser) return;
    const opener = process.platform === 'darwin' ? 'open' : process.platform === 'win32' ? 'explorer' : 'xdg-open';
    const child = spawn(opener, [url.href], { detached: true, stdio: 'ignore' });
    child.on('error', () => {});
    child.unref();
  }

  /** An authorization was started and its loopback listener waits for the browser. */
  get authorizing(): boolean {
    return this.listener !== undefined;
  }

  /** The code the browser brought back to the loopback port; rejects after `ms` or on `signal`. Call `close` once the code is exchanged. */
  async waitForCode(ms: number, signal?: AbortSignal): Promise<string> {
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    try {
      const limit = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`the authorization in the browser was not completed within ${Math.round(ms / 1000)} s`)), ms);
        onAbort = () => reject(signal!.reason instanceof Error ? signal!.reason : new Error('the authorization was abandoned'));
        if (signal?.aborted) onAbort();
        else signal?.addEventListener('abort', onAbort, { once: true });
      });
      return await Promise.race([this.code ?? Promise.reject(new Error('no authorization was started')), limit]);
    } finally {
      clearTimeout(timer);
      if (onAbort) signal?.removeEventListener('abort', onAbort);
    }
  }

  close(): void {
    this.listener?.close();
    this.listener = undefined;
  }

  private async listen(): Promise<void> {
    if (this.listener) return;
    this.code = new Promise<string>((resolve, reject) => (this.arrived = { resolve, reject }));
    this.code.catch(() => {});
    const listener = createServer((request, response) => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      if (url.pathname !== '/callback') return void response.writeHead(404).end();
      const code = url.searchParams.get('code');
      const error = url.searchParams.get('error');
      if (url.searchParams.get('state') !== this.expectedState || (!code && !error)) return void response.writeHead(400).end('This is not the answer to the authorization vibe-agent started.');
      response.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' }).end(code ? 'vibe-agent is authorized. You can close this tab.' : `The authorization failed: ${error}`);
      if (code) this.arrived?.resolve(code);
      else this.arrived?.reject(new Error(`the authorization server answered: ${error} ${url.searchParams.get('error_description') ?? ''}`.trim()));
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    this.listener = listener;
    this.port = (listener.address() as AddressInfo).port;
  }

  private read(): Stored {
    try {
      return JSON.parse(readFileSync(this.file, 'utf8')) as Stored;
    } catch {
      return {};
    }
  }

  private write(stored: Stored): void {
    mkdirSync(join(this.file, '..'), { recursive: true, mode: 0o700 });
    const temporary = `${this.file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(stored), { mode: 0o600 });
    chmodSync(temporary, 0o600);
    renameSync(temporary, this.file);
  }
}
