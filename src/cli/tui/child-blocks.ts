import type { AgentEvent } from '../../contracts/events.js';
import type { ToolCall } from '../../contracts/messages.js';
import { shown } from '../display/describe-event.js';
import { oneLine } from '../display/summarize.js';
import type { Theme } from '../display/theme.js';
import { toolHeader, toolLines, type ToolCallView } from './tool-line.js';

/** One subagent as the TUI shows it: a summary line, and its tool lines when expanded. */
export interface ChildBlock {
  /** `main/task-2`. */
  path: string;
  /** The prompt it was given (its run_start input). */
  input?: string;
  description: string;
  turns: number;
  tools: number;
  cost?: number;
  state: 'running' | 'done' | 'failed' | 'cancelled';
  /** Why it did not answer: a brake, an error. */
  stopped?: string;
  /** Finished tool lines (its own and its children's), painted. */
  lines: string[];
  running: Map<string, ToolCallView>;
}

/** The parent's `task` call a child was started for (matched by its prompt). */
interface TaskCall {
  id: string;
  prompt: string;
  description: string;
}

/**
 * The subagents of one run, from their tagged events. A child's streamed text is never shown (it
 * is only its parent's tool result); its calls are kept for the expanded view. Each block belongs
 * to the parent's `task` call whose prompt started it, so it is drawn under that call's line.
 */
export class ChildBlocks {
  private readonly blocks = new Map<string, ChildBlock>();
  private readonly calls: TaskCall[] = [];
  private readonly blockOfCall = new Map<string, ChildBlock>();

  constructor(
    private readonly theme: Theme,
    private readonly now: () => number,
  ) {}

  get size(): number {
    return this.blocks.size;
  }

  /** A `task` call of the top-level agent is starting: its child's run_start will name its prompt. */
  noteTaskCall(call: ToolCall): void {
    let args: { prompt?: unknown; description?: unknown } = {};
    try {
      args = JSON.parse(call.arguments) as typeof args;
    } catch {
      // Arguments that do not parse: the registry refuses the call, and no child starts.
    }
    const task = { id: call.id, prompt: String(args.prompt ?? ''), description: String(args.description ?? '') };
    // Its child may already have started (events of concurrent calls can arrive in any order).
    const claimed = new Set(this.blockOfCall.values());
    const early = [...this.blocks.values()].find((block) => !claimed.has(block) && block.input === task.prompt);
    if (early) this.claim(early, task);
    else this.calls.push(task);
  }

  /** An event of a subagent (any depth): counted into the block of the top-level child it runs under. */
  handle(event: AgentEvent & { agent: string }, width: number): void {
    const path = event.agent.split('/').slice(0, 2).join('/');
    const own = path === event.agent;
    let block = this.blocks.get(path);
    if (!block) {
      block = { path, description: '', turns: 0, tools: 0, state: 'running', lines: [], running: new Map() };
      this.blocks.set(path, block);
    }
    const t = this.theme;
    const who = own ? '' : `${t.dim(event.agent.slice(path.length + 1))} `;
    switch (event.type) {
      case 'run_start':
        if (own) this.match(block, event.input);
        break;
      case 'turn_start':
        if (own) block.turns += 1;
        break;
      case 'tool_call_start':
        block.running.set(`${event.agent}\u0000${event.call.id}`, { call: event.call, startedAt: this.now() });
        break;
      case 'tool_call_end': {
        const key = `${event.agent}\u0000${event.id}`;
        const view = block.running.get(key);
        block.running.delete(key);
        block.tools += 1;
        if (view) {
          view.end = { status: event.status, output: event.output, durationMs: event.durationMs };
          block.lines.push(...toolLines(view, this.now(), t, Math.max(20, width - 6)).map((line, i) => (i === 0 ? `${who}${line}` : line)));
        }
        break;
      }
      case 'stop':
        if (!own) break;
        if (event.cost !== undefined) block.cost = event.cost;
        block.state = event.reason === 'answered' ? 'done' : event.reason === 'aborted' ? 'cancelled' : 'failed';
        if (block.state === 'failed') block.stopped = event.error ?? event.reason;
        break;
      default:
        break;
    }
  }

  /** The block started for this `task` call, once it has started. */
  forCall(id: string): ChildBlock | undefined {
    return this.blockOfCall.get(id);
  }

  /** Blocks no `task` call of this run claimed (a grandchild path seen before its parent's start). */
  unclaimed(): ChildBlock[] {
    const claimed = new Set(this.blockOfCall.values());
    return [...this.blocks.values()].filter((block) => !claimed.has(block));
  }

  /** The parent's call ended: a child that never reported its end failed with it. */
  callEnded(id: string, failed: boolean): ChildBlock | undefined {
    const block = this.blockOfCall.get(id);
    if (block && block.state === 'running') block.state = failed ? 'failed' : 'done';
    return block;
  }

  all(): ChildBlock[] {
    return [...this.blocks.values()];
  }

  private match(block: ChildBlock, input: string): void {
    block.input = input;
    const index = this.calls.findIndex((call) => call.prompt === input);
    if (index >= 0) this.claim(block, this.calls.splice(index, 1)[0]!);
  }

  private claim(block: ChildBlock, call: TaskCall): void {
    block.description = call.description || oneLine(call.prompt, 60);
    this.blockOfCall.set(call.id, block);
  }
}

/** A block's lines: the summary; expanded, its finished and running tool lines under it. */
export function childBlockLines(block: ChildBlock, expanded: boolean, t: Theme, now: number, width: number): string[] {
  const name = block.path.replace(/^main\//, '');
  const state =
    block.state === 'running' ? t.cyan('running') : block.state === 'done' ? t.green('done') : block.state === 'cancelled' ? t.yellow('cancelled') : t.red(`failed${block.stopped ? ` (${oneLine(block.stopped, 60)})` : ''}`);
  const parts = [
    `${block.turns} turn${block.turns === 1 ? '' : 's'}`,
    `${block.tools} tool${block.tools === 1 ? '' : 's'}`,
    ...(block.cost !== undefined ? [`$${block.cost.toFixed(4)}`] : []),
  ];
  const description = block.description ? ` ${shown(oneLine(block.description, Math.max(10, width - 50)))}` : '';
  const fold = expanded ? '▾' : '▸';
  const lines = [`  ${t.dim('└')} ${fold} ${t.bold(name)}${description} ${t.dim(`· ${parts.join(' · ')} ·`)} ${state}`];
  if (!expanded) return lines;
  const row = (line: string) => `      ${line}`;
  lines.push(...block.lines.map(row));
  for (const view of block.running.values()) lines.push(row(toolHeader(view, now, t, Math.max(20, width - 6))));
  if (!block.lines.length && !block.running.size) lines.push(row(t.dim('(no tool calls yet)')));
  return lines;
}
