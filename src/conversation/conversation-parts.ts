import type { CheckpointTarget } from '../checkpoints/with-checkpoints.js';
import type { SubagentOptions } from '../agents/subagents.js';
import type { CustomCommand } from '../commands/discover-commands.js';
import type { AgentEvent } from '../contracts/events.js';
import type { ToolCall } from '../contracts/messages.js';
import type { Provider } from '../contracts/provider.js';
import type { AgentOptions } from '../core/agent-options.js';
import type { Hooks } from '../hooks/hooks.js';
import type { PermissionPolicy } from '../permissions/permission-policy.js';
import type { ExpandedPrompt } from '../mcp/mcp-servers.js';
import type { ToolScope } from '../skills/tool-scope.js';
import type { AskApproval } from '../tools/approval.js';
import type { TodoList } from '../tools/builtin/todo-list.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { SessionChoice } from './session-file.js';

/** Wraps a run's event stream (OpenTelemetry spans); `shutdown` sends what is left when the conversation closes. */
export interface RunWatcher {
  wrap<Result>(events: AsyncGenerator<AgentEvent, Result>): AsyncGenerator<AgentEvent, Result>;
  shutdown(): Promise<void>;
}

/**
 * What a conversation is built from: the parts resolved from settings (the CLI's prepareRun makes
 * them; a library user or a test may make their own). The conversation builds every run's agent
 * from these, so every front end runs the same agent.
 */
export interface ConversationParts {
  workspace: string;
  provider: Provider;
  model: string;
  /** The provider preset's name and wire protocol (which image limits apply). */
  preset: { name: string; protocol: string | undefined };
  tools: ToolRegistry;
  /** The system prompt (memory and skills in it); plan mode adds its instructions to it. */
  system: string;
  /** Truncation and compaction before each request, and the retry after a context overflow. */
  context: Pick<AgentOptions, 'prepareMessages' | 'onContextOverflow' | 'contextForAgent'>;
  hooks: Hooks | undefined;
  /** Custom `/commands`, the tool scope they narrow, and MCP prompts (`/mcp__server__prompt`). */
  commands: readonly CustomCommand[];
  scope: ToolScope;
  mcpPrompt?: (text: string) => Promise<ExpandedPrompt | undefined>;
  maxTurns: number;
  /** false: a run stopped by its turn limit asks for no hand-off (a replay against a live model ends where the recording did). */
  handoff?: false;
  temperature: number;
  maxCost?: number;
  /** How long the provider keeps a prompt cache (cache-miss explanations). */
  cacheTtlMs: number;
  /** The task tool and the tree's limits; absent: no subagents. */
  subagents?: SubagentOptions;
  /** The model's checklist, restored from a resumed history. */
  todos?: TodoList;
  /**
   * The permission policy, given the conversation's one way of asking (undefined: nobody can be
   * asked, so calls that need approval are refused). The conversation holds it: its mode is the
   * conversation's `mode`, changed only through `setMode`; its start mode is the session's.
   */
  authorize: (ask: AskApproval | undefined) => PermissionPolicy;
  /** Whether approval questions are put at all (a headless run refuses instead of waiting on nobody). */
  asks: boolean;
  /** An approved plan (`--plan-file`) that the first prompt carries. */
  approvedPlan?: string;
  /** The spans, started once the session's id is known. */
  watch?: (conversationId: string | undefined) => Promise<RunWatcher | undefined>;
  /** Whether a call may change files (checkpoints skip a snapshot when none can). */
  mayChangeFiles?: (call: ToolCall) => boolean;
  /** Where the file tools announce their writes, and which calls write only through them (see CheckpointTarget). */
  writes?: CheckpointTarget['writes'];
  /** Checkpoints of the workspace, kept in the session (default on when a session is saved). */
  checkpoints?: boolean;
  session: SessionChoice;
  env: NodeJS.ProcessEnv;
  redact: (text: string) => string;
  /** What `redact` removes: streamed text is redacted across its pieces with them (see EventLog). */
  secrets?: readonly string[];
  warn: (text: string) => void;
}
