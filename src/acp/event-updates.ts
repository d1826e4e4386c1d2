import type { PlanEntry, SessionUpdate, ToolCallContent } from '@agentclientprotocol/sdk';
import type { AgentEvent } from '../contracts/events.js';
import type { Tool } from '../contracts/tool.js';
import { todosOfCall } from '../tools/builtin/todo.js';
import { editDiff, toolKind, toolLocations, toolTitle } from './tool-call-view.js';

export interface EventUpdateSource {
  workspace: string;
  tool(name: string): Tool | undefined;
  /** A file's text as the tools would read it now; undefined when it cannot (or must not: a replay) be read. */
  readText(absolute: string): Promise<string | undefined>;
}

/**
 * Turns the loop's events into ACP `session/update`s, one prompt (or one replay) at a time. It
 * only translates: what runs, in which order, and when, is the loop's business.
 */
export class EventUpdates {
  /** An edit's diff, shown when it is proposed, is kept beside its result when it completes. */
  private readonly diffs = new Map<string, ToolCallContent>();

  constructor(private readonly source: EventUpdateSource) {}

  async updates(event: AgentEvent): Promise<SessionUpdate[]> {
    // A subagent's own steps stay inside its `task` call, as in the terminal.
    if (event.agent !== undefined) return [];
    switch (event.type) {
      case 'text_delta':
        return [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: event.text } }];
      case 'reasoning_delta':
        return [{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: event.text } }];
      case 'tool_call_start':
        return this.toolCallStarted(event.call.id, event.call.name, event.call.arguments);
      case 'tool_call_end': {
        const diff = event.status === 'ok' ? this.diffs.get(event.id) : undefined;
        this.diffs.delete(event.id);
        const output: ToolCallContent = { type: 'content', content: { type: 'text', text: event.output } };
        return [
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: event.id,
            status: event.status === 'ok' ? 'completed' : 'failed',
            content: diff ? [diff, output] : [output],
            rawOutput: { status: event.status, output: event.output },
          },
        ];
      }
      default:
        return [];
    }
  }

  private async toolCallStarted(id: string, name: string, rawArguments: string): Promise<SessionUpdate[]> {
    const args = parseArguments(rawArguments);
    const { workspace } = this.source;
    const kind = toolKind(name, this.source.tool(name));
    let locations = toolLocations(workspace, args);
    const content: ToolCallContent[] = [];
    if (kind === 'edit') {
      const diff = await editDiff(name, args, workspace, (absolute) => this.source.readText(absolute));
      if (diff) {
        content.push(diff.content);
        this.diffs.set(id, diff.content);
        if (diff.line !== undefined) locations = locations.map((location) => ({ ...location, line: diff.line }));
      }
    }
    const updates: SessionUpdate[] = [
      { sessionUpdate: 'tool_call', toolCallId: id, title: toolTitle(name, args), kind, status: 'pending', locations, content, rawInput: args },
    ];
    const todos = todosOfCall(name, rawArguments);
    if (todos) updates.push({ sessionUpdate: 'plan', entries: todos.map((item): PlanEntry => ({ content: item.content, status: item.status, priority: 'medium' })) });
    return updates;
  }
}

function parseArguments(raw: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(raw);
    return parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
