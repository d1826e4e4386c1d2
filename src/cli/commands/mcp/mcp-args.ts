import type { CommandInput } from '../../args/command-spec.js';
import { UsageError } from '../../settings/usage-error.js';

export interface McpArgs {
  /** The words after `mcp` (e.g. ["list"]). */
  mcpArgs?: string[];
  /** `mcp serve --http [HOST:]PORT`: streamable HTTP instead of stdio. */
  mcpHttp?: string;
}

export function parseMcpArgs({ words, flags }: CommandInput): McpArgs {
  if (flags.http !== undefined && words[0] !== 'serve') throw new UsageError('--http only applies to "vibe-agent mcp serve".');
  return { mcpArgs: words, ...(typeof flags.http === 'string' ? { mcpHttp: flags.http } : {}) };
}
