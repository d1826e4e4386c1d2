import type { Message, Usage } from '../contracts/messages.js';
import { addUsage } from '../contracts/messages.js';
import { TurnEvents } from '../session/turn-events.js';
import type { TraceToolCall, TraceTurn } from './trace-data.js';

/** One agent's (the main agent's, or a subagent's) history and turns, as the records are read. */
export class AgentState {
  history: Message[] = [];
  readonly events = new TurnEvents();
  readonly turns: TraceTurn[] = [];
  model = '';
  run = 0;
  current: TraceTurn | undefined;
  /** The current turn's request was taken (the history as it was sent). */
  requestTaken = false;
  /** The next usage record is a compaction summary's, not the turn's request. */
  compactionUsageNext = false;
  /** `task` calls of this agent whose subagent has not shown up yet, in start order. */
  readonly pendingTasks: TraceToolCall[] = [];
  /** Schema tokens tool search keeps out of every request since it deferred tools. */
  toolSearchSaved: number | undefined;
  /** Said before the next turn starts (e.g. a rewind). */
  pendingNotes: string[] = [];

  constructor(
    readonly path: string,
    private readonly seqStart: () => number,
  ) {}

  startTurn(turn: number): TraceTurn {
    const started: TraceTurn = {
      seq: this.seqStart(),
      run: this.run,
      turn,
      agent: this.path,
      model: this.model,
      request: { ids: [], count: 0, tokens: 0 },
      tools: [],
      retries: [],
      repairs: [],
      compactions: [],
      notes: this.pendingNotes,
      complete: false,
      ...(this.toolSearchSaved !== undefined ? { toolSearch: { savedTokens: this.toolSearchSaved } } : {}),
    };
    this.pendingNotes = [];
    this.turns.push(started);
    this.current = started;
    this.requestTaken = false;
    this.compactionUsageNext = false;
    return started;
  }

  addExtraUsage(usage: Usage): void {
    if (!this.current) return;
    this.current.extraUsage = this.current.extraUsage ? addUsage(this.current.extraUsage, usage) : usage;
  }

  findCall(id: string): TraceToolCall | undefined {
    return this.current?.tools.find((call) => call.id === id);
  }
}
