import type { CommandInput } from '../../args/command-spec.js';
import { UsageError } from '../../settings/usage-error.js';
import { mcpManageArgs, type McpManageArgs } from './mcp-manage-args.js';

export interface McpArgs {
  /** The words after `mcp` (e.g. ["list"]). */
  mcpArgs?: string[];
  /** `mcp serve --http [HOST:]PORT`: streamable HTTP instead of stdio. */
  mcpHttp?: string;
  /** `mcp add|add-json|remove|get`: their words and flags (see mcp-manage-args.ts). */
  mcpManage?: McpManageArgs;
}

export function parseMcpArgs(input: CommandInput): McpArgs {
  const { words, flags } = input;
  const mcpManage = mcpManageArgs(input);
  if (mcpManage) return { mcpArgs: words, mcpManage };
  if (flags.http !== undefined && words[0] !== 'serve') throw new UsageError('--http only applies to "vibe-agent mcp serve".');
  return { mcpArgs: words, ...(typeof flags.http === 'string' ? { mcpHttp: flags.http } : {}) };
}
