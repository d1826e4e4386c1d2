/** 200 MCP tools from five real SDK servers over stdio (test/support/mcp-many-tools-server.mjs), shared by the tool-search tests. */
import { join } from 'node:path';
import { McpServers } from '../../src/mcp/mcp-servers.js';
import type { Tool } from '../../src/contracts/tool.js';
import { ToolRegistry, type RegistryOptions } from '../../src/tools/registry.js';
import { ToolSearch, type ToolSearchOptions } from '../../src/tools/tool-search/tool-search.js';

export const MANY_TOOLS_SERVER = join(import.meta.dirname, 'mcp-many-tools-server.mjs');
export const DOMAINS = ['crm', 'billing', 'calendar', 'tickets', 'inventory'];
const origin = { scope: 'user', file: '/home/u/.config/vibe-agent/config.json', format: 'vibe-agent' } as const;

export interface ManyTools {
  tools: Tool[];
  close(): Promise<void>;
}

/** Starts the five servers and waits for all of them; `alwaysLoad` marks one tool of the billing server. */
export async function startManyTools(options: { alwaysLoad?: string } = {}): Promise<ManyTools> {
  const registry = new ToolRegistry();
  const warnings: string[] = [];
  const servers = new McpServers({ registry, warn: (message) => warnings.push(message) });
  for (const domain of DOMAINS) {
    const args = [MANY_TOOLS_SERVER, '--domain', domain, ...(options.alwaysLoad && domain === 'billing' ? ['--always-load', options.alwaysLoad] : [])];
    servers.start({ name: domain, spec: { transport: 'stdio', command: process.execPath, args, env: {} }, origin }, true);
  }
  await servers.settled(120_000);
  const tools = registry.list();
  if (tools.length !== 200) throw new Error(`expected 200 tools, got ${tools.length}: ${warnings.join('; ')}`);
  return { tools, close: () => servers.close() };
}

/** A registry of these tools (plus `extra`) with its own tool search. */
export function searchRegistry(many: ManyTools, search: Partial<ToolSearchOptions> = {}, extra: Tool[] = [], options: RegistryOptions = {}) {
  const toolSearch = new ToolSearch({ mode: { kind: 'auto', percent: 10 }, contextWindow: 200_000, ...search });
  return { registry: new ToolRegistry([...extra, ...many.tools], { ...options, offer: toolSearch }), toolSearch };
}
