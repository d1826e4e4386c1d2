import type { AgentOptions, RunResult } from '../../core/loop.js';
import type { AgentEvent, StopReason } from '../../contracts/events.js';
import type { ImageRef, Message, Usage } from '../../contracts/messages.js';
import type { Spent } from '../../session/session-spent.js';
import type { AskApproval } from '../../tools/approval.js';
import type { Authorize } from '../../contracts/tool.js';
import type { PermissionPolicy } from '../../permissions/permission-policy.js';

export interface SessionEntry {
  id: string;
  /** What the session was about (its first prompt). */
  title?: string;
  /** Shown dimmed: when, how long, how many tokens. */
  detail?: string;
}

/** A custom command as /help and completion show it. */
export interface CustomCommandEntry {
  name: string;
  /** `name <argument-hint>`. */
  usage: string;
  help: string;
}

/** What a typed prompt becomes: itself, or a custom command's expanded prompt (and model). */
export type StartedPrompt = { ok: true; prompt: string; model: string | undefined; images?: ImageRef[]; /** Lines to show: what `@` mentions attached. */ notes?: string[] } | { ok: false; reason: string };

export interface MemoryFile {
  path: string;
  content: string;
}

/**
 * What the interactive session can use beyond the loop. Every member is optional: a slash
 * command whose service is absent says "not available in this build". The CLI wires the real
 * ones (compaction, session store, memory files, permission policy) as they land.
 */
export interface InteractiveServices {
  /** Builds the permission check from the terminal's approval prompt. Default: `createPermissionPolicy({ mode: 'ask', ask })`. */
  authorize?(ask: AskApproval): PermissionPolicy;
  /** /compact: summarise older turns. */
  compact?(messages: Message[], context: { model: string; signal: AbortSignal }): Promise<{ messages: Message[]; compacted: boolean; tokensBefore?: number; tokensAfter?: number }>;
  /** /sessions. */
  listSessions?(): Promise<SessionEntry[]>;
  /** /resume <id>: the conversation of an earlier session. */
  resume?(id: string): Promise<{ id: string; messages: Message[]; spent?: Spent }>;
  /** /clear: the conversation starts over, so the next prompt starts a new session (not more of the old one). */
  clear?(): void;
  /** /memory: the project memory files in effect. */
  memory?(): Promise<MemoryFile[]>;
  /** /skills: the skills and custom commands found, one line each, with where they came from. */
  skills?(): string[];
  /** Custom commands (`/name args`), for /help, completion and telling them from unknown names. */
  customCommands?(): CustomCommandEntry[];
  /**
   * Called with each prompt before its run starts: expands a custom command (shell forms under
   * `authorize`) and starts the run's tool scope. Without it the text is sent as it is.
   */
  startPrompt?(text: string, context: { authorize: Authorize; signal: AbortSignal }): Promise<StartedPrompt>;
  /**
   * A paste that is the path of an image file: remembers it and returns the chip to put in the
   * prompt (`[image: shot.png 640×480]`); the image is attached when a prompt holding the chip is
   * sent. Undefined: the paste is text.
   */
  imagePaste?(text: string): string | undefined;
  /** The model's context window in tokens, when known (for the status line). */
  contextWindow?(model: string): number | undefined;
  /** What `usage` cost on `model`, in US dollars, when known (before the first request: is the model priced?). */
  cost?(model: string, usage: Usage): number | undefined;
  /** What the resumed session (--resume, --continue) had spent: the status line and /cost start from it. */
  spentSoFar?(): Spent | undefined;
  /** Model names offered by /model completion. */
  models?(): string[];
  /** The provider's models as its catalog lists them: /model checks a name against it and picks from it; undefined when unknown (a local server). */
  modelCatalog?(): string[] | undefined;
  /** Runs before each request (the context policy). */
  prepareMessages?: AgentOptions['prepareMessages'];
  /** One for the conversation: each prompt's first request is compared with the previous prompt's last. */
  cacheWatch?: AgentOptions['cacheWatch'];
  /** One for the conversation: what the requests leave out of the history (after a /model switch, a resume elsewhere) is noted once. */
  leftOutNotes?: AgentOptions['leftOutNotes'];
  /** Shrinks the history after the provider said it is too long. */
  onContextOverflow?: AgentOptions['onContextOverflow'];
  /** A context policy of its own for each subagent. */
  contextForAgent?: AgentOptions['contextForAgent'];
  /** Sees every event (the session store appends them). */
  onEvent?(event: AgentEvent): void;
  /**
   * Given, once the screen is up, where to report warnings (a torn session file on /resume, a
   * failed write): stderr would land in the middle of the redrawn area.
   */
  setNotify?(notify: (text: string) => void): void;
  /** /mcp: the MCP servers' table (state, tools, start time, origin), as lines. */
  mcpServers?(): string[];
  /** /bashes and the status line: the shell's background jobs. */
  backgroundJobs?(): Array<{ id: string; command: string; pid: number; running: boolean; exitCode?: number | null }>;
  /** /bashes kill ID: ends the job's whole process group; false when no such job runs. */
  killBackgroundJob?(id: string): Promise<boolean>;
  /**
   * After each prompt's run (the Stop hooks): the next user message when a hook says the agent is
   * not done yet, undefined to stop. `round` counts the continuations of this prompt so far.
   */
  afterRun?(reason: StopReason, round: number): Promise<string | undefined>;
  /** Wraps each run's events (checkpoints are taken this way, outside the loop). */
  wrapRun?(events: AsyncGenerator<AgentEvent, RunResult>): AsyncGenerator<AgentEvent, RunResult>;
  /** /rewind without a number: the rewind points of this session (one per prompt, and one before each rewind), one line each. */
  checkpoints?(): string[] | Promise<string[]>;
  /** The points' numbers, in the order of `checkpoints()` (for the /rewind picker). */
  checkpointNumbers?(): number[];
  /**
   * /rewind N and /undo (N undefined: before the last prompt still in the conversation). `messages`: the rewound conversation.
   * Files the user changed since the agent left them are overwritten only with `force`, or when
   * `confirm` (given the paths) answers yes.
   */
  rewind?(n: number | undefined, options: { force: boolean; confirm?: (paths: string[]) => Promise<boolean> }): Promise<{ lines: string[]; messages?: Message[] }>;
  /** Called once when the session ends (flush and unlock the session file). */
  close?(): void;
}
