import type { Protocol, Settings } from '../settings/settings.js';

export { PROTOCOLS, type Protocol } from '../settings/settings.js';
export { UsageError } from '../settings/usage-error.js';

/**
 * What the command line said; settings given by flag are parsed, everything else is applied by resolveSettings.
 * A command's own options are its spec's parse result (commands/NAME/spec.ts), merged in by the parser.
 */
export interface CliArgs {
  command: 'run' | 'demo' | 'help' | 'version' | 'sessions' | 'import' | 'memory' | 'skills' | 'index' | 'doctor' | 'eval' | 'mcp' | 'rewind' | 'trace' | 'acp' | 'replay' | 'lsp' | 'serve' | 'agents' | 'logs' | 'stop' | 'land' | 'discard' | 'approve' | 'attach';
  /** `--bg`: run the task as a background session of the session server (`worktree`: in its own git worktree, "" to make up a name; `base`: from that commit). */
  background?: { worktree?: string; base?: string };
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
  /** --continue: resume the latest session of this workspace. */
  continue?: boolean;
  /** --resume [id]: an id or id prefix; "" when given without one (pick from the list). */
  resume?: string;
  /** --goal CONDITION: work until the judge says it holds (docs/goals.md). */
  goal?: string;
  /** --continue-goal: continue a resumed session's unfinished goal. */
  continueGoal?: boolean;
  /** --no-session: do not record this run. */
  noSession?: boolean;
  /** `--help COMMAND`, `COMMAND --help` or `--help all`: which help to print. */
  helpTopic?: string;
}
