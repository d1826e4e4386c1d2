import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Authorize, Tool } from '../contracts/tool.js';
import type { ToolRegistry } from '../tools/registry.js';

export interface ServeOptions {
  registry: ToolRegistry;
  /** The permission policy every call passes (no one to ask: what needs approval is refused). */
  authorize: Authorize;
  workspace: string;
  /** Which tools are offered at all: those the policy lets run without asking. */
  offered(tool: Tool): boolean;
  /** Added to each offered tool's description: why only these are offered. */
  note: string;
  version: string;
}

/**
 * Our tools as an MCP server (the SDK's low-level Server, so our JSON Schemas go out as they
 * are), over stdio. Each call goes through the same registry and permission policy as a run's:
 * workspace confinement, time limits, output caps and redaction included.
 */
export async function serveRegistry(options: ServeOptions): Promise<{ closed: Promise<void> }> {
  const server = createToolServer(options);
  const closed = new Promise<void>((resolve) => (server.onclose = resolve));
  await server.connect(new StdioServerTransport());
  return { closed };
}

/** The MCP server of our tools, for any transport (stdio above, streamable HTTP in serve-http.ts). */
export function createToolServer(options: ServeOptions): Server {
  const server = new Server({ name: 'vibe-agent', version: options.version }, { capabilities: { tools: {} } });
  const offered = () => options.registry.list().filter(options.offered);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: offered().map((tool) => ({
      name: tool.name,
      description: `${tool.description}\n\n${options.note}`,
      inputSchema: { type: 'object' as const, ...tool.schema.parameters },
      annotations: { readOnlyHint: tool.readOnly },
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = options.registry.get(request.params.name);
    if (!tool || !options.offered(tool)) {
      return { content: [{ type: 'text' as const, text: `${request.params.name} is not offered by this server. ${options.note}` }], isError: true };
    }
    const result = await options.registry.invoke(
      { id: String(extra.requestId), name: tool.name, arguments: JSON.stringify(request.params.arguments ?? {}) },
      { signal: extra.signal, workspace: options.workspace, authorize: options.authorize },
    );
    return { content: [{ type: 'text' as const, text: result.content }], isError: result.isError };
  });
  return server;
}
