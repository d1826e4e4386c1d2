/**
 * The MCP SDK's client side, imported when the first server starts: a run with no MCP server
 * configured loads none of it (nor the ajv validators and zod schemas it brings along).
 */
async function importClientSdk() {
  const [client, sse, streamable, types, auth] = await Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/client/sse.js'),
    import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('@modelcontextprotocol/sdk/client/auth.js'),
  ]);
  return {
    Client: client.Client,
    SSEClientTransport: sse.SSEClientTransport,
    StreamableHTTPClientTransport: streamable.StreamableHTTPClientTransport,
    ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
    JSONRPCMessageSchema: types.JSONRPCMessageSchema,
    UnauthorizedError: auth.UnauthorizedError,
  };
}

export type McpClientSdk = Awaited<ReturnType<typeof importClientSdk>>;

let loading: Promise<McpClientSdk> | undefined;

export function mcpClientSdk(): Promise<McpClientSdk> {
  return (loading ??= importClientSdk());
}
