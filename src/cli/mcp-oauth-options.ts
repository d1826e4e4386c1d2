import type { OAuthOptions } from '../mcp/oauth-provider.js';
import { userDataDir } from '../session/paths.js';

/**
 * OAuth's browser step for an HTTP server that asks for it: the sign-in address is always shown
 * (through `warn`); a browser is opened only when there is a terminal to come back to.
 */
export function mcpOAuthOptions(env: NodeJS.ProcessEnv, atTerminal: boolean, warn: (message: string) => void): OAuthOptions {
  return {
    dataDir: userDataDir(env),
    openBrowser: atTerminal,
    announce: (url: string) => warn(`an MCP server asks you to authorize vibe-agent; open this address to sign in: ${url}`),
  };
}
