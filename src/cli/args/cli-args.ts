import type { Protocol, Settings } from '../settings/settings.js';

export { PROTOCOLS, type Protocol } from '../settings/settings.js';
export { UsageError } from '../settings/usage-error.js';

/** What the command line said; settings given by flag are parsed, everything else is applied by resolveSettings. */
export interface CliArgs {
  command: 'run' | 'demo' | 'help' | 'version' | 'sessions' | 'memory' | 'skills' | 'index' | 'doctor' | 'eval' | 'mcp' | 'rewind' | 'trace' | 'acp' | 'replay' | 'lsp';
  prompt?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  maxTurns?: number;
  tokenBudget?: number;
  agentDepth?: number;
  /** US dollars a run may spend before it stops (exit 3). */
  maxCost?: number;
  /** Extended thinking budget in tokens (anthropic, google). */
  thinking?: number;
  temperature?: number;
  tools?: string[];
  contextWindow?: number;
  yes: boolean;
  json: boolean;
  cwd?: string;
  /** --permission-mode, or yolo for --yes. */
  permissionMode?: Settings['permissionMode'];
  /** --add-dir directories (absolute). */
  addDirs: string[];
  allowSecrets: boolean;
  protocol?: Protocol;
  /** `demo --compare-protocols`: run the demo both ways and print a table. */
  compareProtocols?: boolean;
  /** --continue: resume the latest session of this workspace. */
  continue?: boolean;
  /** --resume [id]: an id or id prefix; "" when given without one (pick from the list). */
  resume?: string;
  /** --no-session: do not record this run. */
  noSession?: boolean;
  /** `memory` subcommand words (e.g. ["edit"], ["forget", "text"]) and its --user flag. */
  memoryArgs?: string[];
  user?: boolean;
  /** `eval` subcommand words (e.g. ["merge", "a.jsonl", "b.jsonl"]) and its flags, unparsed. */
  evalArgs?: string[];
  evalFlags?: { runs?: string; concurrency?: string; shard?: string; suite?: string; output?: string };
  /** `mcp` subcommand words (e.g. ["list"]). */
  mcpArgs?: string[];
  /** `mcp serve --http [HOST:]PORT`: streamable HTTP instead of stdio. */
  mcpHttp?: string;
  /** `replay SESSION [--against]`: the session (id, id prefix or .jsonl path) and whether to run a live model. */
  replay?: { session: string; against: boolean };
}
