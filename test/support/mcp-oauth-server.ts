/**
 * An MCP server over streamable HTTP behind OAuth 2.1, with its own authorization server (the
 * SDK's mcpAuthRouter: metadata, dynamic client registration, authorize, token with PKCE and
 * refresh). /mcp answers 401 with a WWW-Authenticate resource-metadata pointer without a valid
 * token. The "user" approves at once: /authorize redirects straight back with a code.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
// @ts-expect-error: express (the SDK's dependency, for its auth router) ships no types here.
import express from 'express';
import { InvalidTokenError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { OAuthServerProvider, AuthorizationParams } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { getOAuthProtectedResourceMetadataUrl, mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
// @ts-expect-error: a plain ESM script shared with the stdio tests.
import { createTestServer } from './mcp-test-server.mjs';

class TestAuthProvider implements OAuthServerProvider {
  readonly registered: OAuthClientInformationFull[] = [];
  readonly clientsStore: OAuthRegisteredClientsStore = {
    getClient: async (id) => this.registered.find((client) => client.client_id === id),
    registerClient: async (client) => {
      const full = { ...client, client_id: randomUUID(), client_id_issued_at: Math.floor(Date.now() / 1000) } as OAuthClientInformationFull;
      this.registered.push(full);
      return full;
    },
  };
  private readonly codes = new Map<string, { client: string; params: AuthorizationParams }>();
  private readonly access = new Map<string, { client: string; expired: boolean }>();
  private readonly refresh = new Map<string, string>();
  /** Grants, by kind, in order. */
  readonly grants: string[] = [];

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: Parameters<OAuthServerProvider['authorize']>[2]): Promise<void> {
    const code = randomUUID();
    this.codes.set(code, { client: client.client_id, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(target.toString());
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string): Promise<string> {
    const found = this.codes.get(code);
    if (!found) throw new Error('unknown code');
    return found.params.codeChallenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const found = this.codes.get(code);
    if (!found || found.client !== client.client_id) throw new Error('unknown code');
    this.codes.delete(code);
    this.grants.push('authorization_code');
    return this.issue(client.client_id);
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, refreshToken: string): Promise<OAuthTokens> {
    if (this.refresh.get(refreshToken) !== client.client_id) throw new Error('unknown refresh token');
    this.refresh.delete(refreshToken);
    this.grants.push('refresh_token');
    return this.issue(client.client_id);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const found = this.access.get(token);
    // InvalidTokenError is what makes the middleware answer 401 (anything else is a 500).
    if (!found || found.expired) throw new InvalidTokenError('invalid or expired token');
    return { token, clientId: found.client, scopes: [], expiresAt: Math.floor(Date.now() / 1000) + 3600 };
  }

  /** Every access token issued so far stops working (as if their hour had passed). */
  expireAccessTokens(): void {
    for (const token of this.access.values()) token.expired = true;
  }

  private issue(client: string): OAuthTokens {
    const access = randomUUID();
    const refresh = randomUUID();
    this.access.set(access, { client, expired: false });
    this.refresh.set(refresh, client);
    return { access_token: access, token_type: 'bearer', expires_in: 3600, refresh_token: refresh };
  }
}

export interface McpOAuthServer {
  url: string;
  provider: TestAuthProvider;
  close(): Promise<void>;
}

export async function startMcpOAuthServer(): Promise<McpOAuthServer> {
  const provider = new TestAuthProvider();
  const app = express() as {
    use(handler: unknown): void;
    post(path: string, ...handlers: unknown[]): void;
    listen(port: number, host: string, ready: () => void): Server;
  };
  let server: Server | undefined;
  await new Promise<void>((resolve) => (server = app.listen(0, '127.0.0.1', () => resolve())));
  const base = `http://127.0.0.1:${(server!.address() as AddressInfo).port}`;
  const mcpUrl = new URL(`${base}/mcp`);
  app.use(mcpAuthRouter({ provider, issuerUrl: new URL(base), resourceServerUrl: mcpUrl }));
  app.post('/mcp', (express as { json(): unknown }).json(), requireBearerAuth({ verifier: provider, resourceMetadataUrl: getOAuthProtectedResourceMetadataUrl(mcpUrl) }), async (req: IncomingMessage & { body?: unknown }, res: ServerResponse) => {
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const mcp = createTestServer('oauth');
    res.on('close', () => void mcp.close());
    await mcp.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  return {
    url: mcpUrl.href,
    provider,
    close: () => {
      server!.closeAllConnections();
      return new Promise((resolve) => server!.close(() => resolve()));
    },
  };
}
