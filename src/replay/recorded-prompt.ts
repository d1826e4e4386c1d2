import type { AgentEvent } from '../contracts/events.js';
import type { Message } from '../contracts/messages.js';
import type { Provider } from '../contracts/provider.js';
import type { ConversationParts } from '../conversation/conversation-parts.js';
import { openConversation } from '../conversation/open-conversation.js';
import { agentEventOf } from '../conversation/prompt-events.js';
import type { PermissionMode } from '../permissions/permission-modes.js';
import { withSystemPrompt } from '../session/session-store.js';
import type { ToolRegistry } from '../tools/registry.js';

/** One recorded prompt to run again: what replaces the live parts, and where its events go. */
export interface RecordedPrompt {
  input: string;
  provider: Provider;
  model: string;
  tools: ToolRegistry;
  context: ConversationParts['context'];
  /** The conversation the file holds before this prompt (a continued session's later run). */
  history?: Message[];
  maxTurns?: number;
  handoff?: false;
  /** The mode the recorded run ran in, when the file says (a `mode_changed` before it); else the settings'. */
  mode?: PermissionMode;
  signal: AbortSignal;
  /** Each event of the run, the subagents' included, as the conversation publishes it. */
  onEvent(event: AgentEvent): void;
}

/**
 * Runs a recorded prompt through the conversation core, so a replay sends what a one-shot run sends
 * (the same agent built from the same parts: subagents, cache TTL, limits, plan mode). What would
 * reach outside is off: no session file, hooks, spans, checkpoints, MCP prompts or questions, and
 * the prompt goes in verbatim (it was recorded after the pipeline expanded it).
 */
export async function runRecordedPrompt(parts: ConversationParts, prompt: RecordedPrompt): Promise<void> {
  const { watch: _spans, mcpPrompt: _mcp, approvedPlan: _plan, ...kept } = parts;
  const conversation = await openConversation({
    ...kept,
    provider: prompt.provider,
    model: prompt.model,
    tools: prompt.tools,
    context: prompt.context,
    hooks: undefined,
    commands: [],
    session: { kind: 'none' },
    asks: false,
    checkpoints: false,
    ...(prompt.maxTurns !== undefined ? { maxTurns: prompt.maxTurns } : {}),
    ...(prompt.handoff === false ? { handoff: false } : {}),
  });
  if (prompt.mode) conversation.setMode(prompt.mode, { by: 'resume' });
  // Under today's system prompt, as a resumed session is continued (the run swaps in plan mode's).
  if (prompt.history) conversation.setHistory(withSystemPrompt(prompt.history, parts.system));
  conversation.subscribe((event) => {
    const agentEvent = agentEventOf(event);
    if (agentEvent) prompt.onEvent(agentEvent);
  });
  try {
    await conversation.prompt(prompt.input, { verbatim: true, signal: prompt.signal });
  } finally {
    await conversation.close();
  }
}

