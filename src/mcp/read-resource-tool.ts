import { z } from 'zod';
import { checkWithZod } from '../tools/zod-check.js';
import type { Tool } from '../contracts/tool.js';
import type { McpConnection } from './mcp-connection.js';

export const READ_RESOURCE_TOOL = 'read_mcp_resource';

const makeParameters = () =>
  z.object({
    server: z.string().optional().describe('The MCP server, as named in the configuration; omit to list every server\'s resources.'),
    uri: z.string().optional().describe("The resource's URI; omit to list the server's resources."),
  });

const SCHEMA_PARAMETERS = {
  type: 'object',
  properties: {
    server: { type: 'string', description: "The MCP server, as named in the configuration; omit to list every server's resources." },
    uri: { type: 'string', description: "The resource's URI; omit to list the server's resources." },
  },
  additionalProperties: false,
};

const DESCRIPTION =
  'Reads a resource that an MCP server offers (files, records, documents it exposes by URI). Without a uri, lists the resources (server, uri, name, type).';

/**
 * One tool for every server's resources, registered once some server offers them: listing and
 * reading only, so it is category read (never asked about), like read_file.
 */
export function readResourceTool(connections: () => McpConnection[]): Tool {
  const parameters = makeParameters();
  return {
    name: READ_RESOURCE_TOOL,
    description: DESCRIPTION,
    checkArguments: (args) => checkWithZod(parameters, args),
    schema: { name: READ_RESOURCE_TOOL, description: DESCRIPTION, parameters: SCHEMA_PARAMETERS },
    readOnly: true,
    needsApproval: false,
    permission: { category: 'read', subject: (args) => ((args as { uri?: string }).uri ? { kind: 'text', value: (args as { uri: string }).uri } : undefined) },
    timeoutMs: undefined,
    execute: async (args, context) => {
      const { server, uri } = parameters.parse(args);
      const offering = connections().filter((connection) => connection.state === 'ready' && connection.resources.length > 0);
      const chosen = server === undefined ? offering : offering.filter((connection) => connection.name === server);
      if (server !== undefined && chosen.length === 0) {
        return { output: `No running MCP server "${server}" offers resources. Servers with resources: ${offering.map((connection) => connection.name).join(', ') || 'none'}.`, isError: true };
      }
      if (uri === undefined) {
        const lines = chosen.flatMap((connection) => connection.resources.map((resource) => `${connection.name}\t${resource.uri}\t${resource.name}${resource.mimeType ? `\t${resource.mimeType}` : ''}${resource.description ? `\t${resource.description}` : ''}`));
        return { output: lines.join('\n') || 'No resources.', isError: false };
      }
      const target = chosen.length === 1 ? chosen[0] : chosen.find((connection) => connection.resources.some((resource) => resource.uri === uri));
      if (!target) return { output: `Say which server: more than one offers resources (${chosen.map((connection) => connection.name).join(', ')}) and none lists ${uri}.`, isError: true };
      try {
        return { output: await target.readResource(uri, context.signal), isError: false };
      } catch (error) {
        if (context.signal.aborted) throw error;
        return { output: `The MCP server "${target.name}" could not read ${uri}: ${(error as Error).message}`, isError: true };
      }
    },
    preview: async (args) => {
      const { server, uri } = args as { server?: string; uri?: string };
      return { summary: uri ? `${server ?? 'MCP'} › ${uri}` : `list ${server ?? 'all'} MCP resources` };
    },
  };
}
