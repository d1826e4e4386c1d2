import type { AgentEvent } from '../../contracts/events.js';
import type { Message, Usage } from '../../contracts/messages.js';
import type { Conversation, ConversationNotice, QuestionDesk } from '../../conversation/conversation-types.js';
import type { Spent } from '../../session/session-spent.js';
import type { PermissionMode, PermissionPolicy } from '../../permissions/permission-policy.js';
import type { PlanScope } from '../../permissions/plan-scope.js';
import type { AskApproval } from '../../tools/approval.js';
import type { TuiGoals } from './goal-command.js';

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

export interface MemoryFile {
  path: string;
  content: string;
}

/** The abort reason of a terminal's own prompt when an attached terminal detaches: the session's turn goes on. */
export const DETACHING = 'detaching';

/**
 * The conversation as the terminal drives it: the core's session (src/conversation), which builds
 * the agent, runs the prompt pipeline, the Stop hooks and the session file. The terminal only sends
 * prompts, renders the numbered events and answers the questions.
 */
export interface TuiConversation extends Conversation {
  readonly questions: QuestionDesk & { readonly ask: AskApproval };
  /** Records a front end's event (a /compact's) in the stream and the session file. */
  note(event: AgentEvent | ConversationNotice): void;
  /** A rewind in the session file (then `setHistory` the rebuilt history). */
  rewind(toRecord: number): void;
}

/** What /bg hands to the session server with the session. */
export interface BackgroundHandover {
  /** The model the terminal is on (its /model). */
  model: string;
  /** The mode the terminal shows, and an approved plan's bounds: the session's from now on. */
  mode: PermissionMode;
  planScope?: PlanScope;
  /** A turn was stopped for the move: the server is asked to carry on with it. */
  carryOn: boolean;
  /** Prompts typed during that turn and not yet sent: they follow, in order. */
  queued: string[];
  /** `!command` output not yet sent: it goes before the first of those prompts. */
  before: string[];
}

/**
 * What the interactive session works with, all of it required: the CLI builds them from the same
 * modules the one-shot run uses (src/cli/commands/interactive/interactive-services.ts).
 */
export interface InteractiveServices {
  /** The conversation being driven now (it changes at /clear and /resume). */
  conversation(): TuiConversation;
  /** The permission rules the conversation's calls are checked by (/init wraps them); its mode is the conversation's, changed through `setMode`. */
  permissions: PermissionPolicy;
  /** The same rules for a `!command` the user typed: typing it is the answer to "allow?". */
  typedPermissions: PermissionPolicy;
  /** /clear: this conversation ends (SessionEnd) and a fresh one starts, a session of its own. */
  clear(): Promise<void>;
  /** /resume <id>: the conversation of an earlier session becomes this one. */
  resume(id: string): Promise<{ id: string; messages: Message[]; spent?: Spent }>;
  /** /compact: summarise older turns. */
  compact(messages: Message[], context: { model: string; signal: AbortSignal }): Promise<{ messages: Message[]; compacted: boolean; tokensBefore?: number; tokensAfter?: number }>;
  /** /sessions. */
  listSessions(): Promise<SessionEntry[]>;
  /** /memory: the project memory files in effect. */
  memory(): Promise<MemoryFile[]>;
  /** /skills: the skills and custom commands found, one line each, with where they came from. */
  skills(): string[];
  /** Custom commands (`/name args`), for /help, completion and telling them from unknown names. */
  customCommands(): CustomCommandEntry[];
  /**
   * A paste that is the path of an image file: remembers it and returns the chip to put in the
   * prompt (`[image: shot.png 640×480]`); undefined: the paste is text.
   */
  imagePaste(text: string): string | undefined;
  /** The image files whose chips are in a prompt being sent. */
  imagePaths(prompt: string): string[];
  /** The model's context window in tokens, when known (for the status line). */
  contextWindow(model: string): number | undefined;
  /** What `usage` cost on `model`, in US dollars, when known. */
  cost(model: string, usage: Usage): number | undefined;
  /** What the resumed session (--resume, --continue) had spent: the status line and /cost start from it. */
  spentSoFar(): Spent | undefined;
  /** Model names offered by /model completion. */
  models(): string[];
  /** The provider's models as its catalog lists them: /model checks a name against it and picks from it; undefined when unknown (a local server). */
  modelCatalog(): string[] | undefined;
  /** /mcp: the MCP servers' table (state, tools, start time, origin), as lines. */
  mcpServers(): string[];
  /** /bashes and the status line: the shell's background jobs. */
  backgroundJobs(): Array<{ id: string; command: string; pid: number; running: boolean; exitCode?: number | null }>;
  /** /bashes kill ID: ends the job's whole process group; false when no such job runs. */
  killBackgroundJob(id: string): Promise<boolean>;
  /** /rewind without a number: the rewind points of this session (one per prompt, and one before each rewind), one line each. */
  checkpoints(): Promise<string[]>;
  /** The points' numbers, in the order of `checkpoints()` (for the /rewind picker). */
  checkpointNumbers(): number[];
  /**
   * /rewind N and /undo (N undefined: before the last prompt still in the conversation). `messages`: the rewound conversation.
   * Files the user changed since the agent left them are overwritten only with `force`, or when
   * `confirm` (given the paths) answers yes.
   */
  rewind(n: number | undefined, options: { force: boolean; confirm?: (paths: string[]) => Promise<boolean> }): Promise<{ lines: string[]; messages?: Message[] }>;
  /** /goal: the judge, its checks and caps, and the session's unfinished goal (src/conversation/goal). */
  goals: TuiGoals;
  /**
   * Given, once the screen is up, where to report warnings (a torn session file on /resume, a
   * failed write): stderr would land in the middle of the redrawn area.
   */
  setNotify(notify: (text: string) => void): void;
  /**
   * /bg: this terminal stops writing the session (its file closed), the session server (started if
   * none runs) opens it from its file and goes on; resolves with the lines to print (its id, name,
   * how to attach). Rejects when it cannot, the session then reopened here as it was.
   */
  moveToBackground(handover: BackgroundHandover): Promise<string[]>;
  /** Called once when the session ends: SessionEnd, the spans, the session file. */
  close(): Promise<void>;
}
