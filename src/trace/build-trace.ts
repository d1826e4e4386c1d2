import { goalNote, traceGoals } from './goal-notes.js';
import type { AssistantMessage, Message, Usage } from '../contracts/messages.js';
import type { ToolCallStatus } from '../contracts/tool.js';
import { knownWindow } from '../context/model-windows.js';
import { TokenCounter } from '../context/token-count.js';
import { requestCost } from '../providers/pricing.js';
import type { RawRecord, ReadSession } from '../session/read-session.js';
import { sessionOutcome } from './session-outcome.js';
import type { ModelRequest } from '../contracts/provider.js';
import { rebuildHistory } from '../session/rebuild-history.js';
import { rebuildRequests } from '../session/request-record.js';
import { historyRecordSchema, type HistoryRecord } from '../session/record-schemas.js';
import { HISTORY_RECORD_TYPES } from '../session/records.js';
import { AgentState } from './agent-state.js';
import { applyRewrite } from '../session/apply-rewrite.js';
import { MessageTable } from './message-table.js';
import { sumTotals } from './trace-totals.js';
import type { TraceData, TraceReview, TraceToolCall, TraceTurn } from './trace-data.js';

export interface TraceOptions {
  /** The session file's path, shown on the page. */
  file: string;
  /** The user's --context-window for this trace: wins over what the session says. */
  contextWindow?: number;
}

/**
 * Builds the trace page's data from a session's records: each turn with the request as the
 * model saw it (the history rebuilt the way resume rebuilds it, compactions and rewinds
 * applied), the reply, the tool calls, retries, repairs and compactions. Record types it does
 * not know are passed over, so newer files still open.
 */
export async function buildTrace(read: ReadSession, options: TraceOptions): Promise<TraceData> {
  const recorded = read.records.some((record) => record.type === 'request') ? rebuildRequests(read.records, { verify: false }) : { requests: [], warnings: [] };
  const sent = new Map(recorded.requests.map(({ index, request }) => [index, request]));
  const table = new MessageTable(await TokenCounter.create(), sent.size > 0);
  const builder = new TraceBuilder(table, read.records, sent);
  read.records.forEach((record, index) => builder.add(record, index));
  builder.finish();
  builder.problems.push(...recorded.warnings);
  const notes = [...read.warnings, ...builder.problems];
  const window = contextWindow(options.contextWindow, builder.reportedWindow, builder.main.model);
  const goals = traceGoals(read.records);
  return {
    session: { id: read.header?.id ?? '', workspace: read.header?.workspace ?? '', createdAt: read.header?.createdAt ?? '', file: options.file },
    outcome: sessionOutcome(read.records),
    ...(window.tokens !== undefined ? { contextWindow: window.tokens } : {}),
    contextWindowSource: window.source,
    requests: sent.size > 0 ? 'recorded' : 'rebuilt',
    messages: table.messages,
    turns: builder.main.turns.concat(builder.orphans),
    totals: sumTotals(builder.main.turns.concat(builder.orphans), builder.main.run),
    skipped: { count: read.skippedLines.length + builder.problems.length, notes },
    ...(goals.length ? { goals } : {}),
  };
}

function contextWindow(flag: number | undefined, reported: number | undefined, model: string): { tokens?: number; source: string } {
  if (flag !== undefined) return { tokens: flag, source: '--context-window' };
  if (reported !== undefined) return { tokens: reported, source: 'the provider (a context warning in the session)' };
  const known = model ? knownWindow(model) : undefined;
  if (known !== undefined) return { tokens: known, source: `the listed window of ${model}` };
  return { source: 'unknown' };
}

class TraceBuilder {
  readonly main: AgentState;
  readonly problems: string[] = [];
  /** Subagents whose `task` call was not found. */
  private readonly orphanAgents: AgentState[] = [];
  reportedWindow: number | undefined;
  private readonly agents = new Map<string, AgentState>();
  private mainSeq = 0;
  /**
   * Replies and results to point at their messages, done last: the requests take their ids first,
   * so a request's messages have consecutive ids (few id runs) even where a recorded request holds a
   * capped copy of a result and the history the whole one.
   */
  private readonly shares: Array<[TraceTurn, Message[]]> = [];

  constructor(
    private readonly table: MessageTable,
    private readonly records: RawRecord[],
    /** The main agent's recorded requests, by record index (children's are not recorded). */
    private readonly sent: Map<number, ModelRequest>,
  ) {
    this.main = new AgentState('main', () => ++this.mainSeq);
    this.agents.set('main', this.main);
  }

  add(raw: RawRecord, index: number): void {
    const path = typeof raw.agent === 'string' ? raw.agent : 'main';
    const agent = raw.type === 'run_start' && path !== 'main' ? this.newSubagent(path) : (this.agents.get(path) ?? this.newSubagent(path));
    if (raw.type === 'request') return this.takeSent(agent, this.sent.get(index));
    if (HISTORY_RECORD_TYPES.has(raw.type)) {
      const parsed = historyRecordSchema.safeParse(raw);
      if (!parsed.success) {
        this.problems.push(`record ${index + 1} (${raw.type}) is malformed and was skipped: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
        return;
      }
      this.addHistoryRecord(agent, parsed.data, raw, index);
    } else {
      this.addEvent(agent, raw);
    }
  }

  /** Turns of subagents whose `task` call was not found, shown after the main agent's. */
  get orphans(): TraceTurn[] {
    return this.orphanAgents.flatMap((agent) => agent.turns);
  }

  finish(): void {
    for (const agent of this.agents.values()) this.closeTurn(agent);
    for (const [turn, messages] of this.shares) this.shareTexts(turn, messages);
  }

  private addHistoryRecord(agent: AgentState, record: HistoryRecord, raw: RawRecord, index: number): void {
    switch (record.type) {
      case 'system_prompt':
        if (agent.history[0]?.role === 'system') agent.history[0] = { role: 'system', content: record.content };
        else if (agent.history.length === 0) agent.history.push({ role: 'system', content: record.content });
        break;
      case 'run_start':
        this.closeTurn(agent);
        agent.run++;
        if (typeof raw.model === 'string') agent.model = raw.model;
        agent.history.push({ role: 'user', content: record.input });
        break;
      case 'rewind':
        this.closeTurn(agent);
        agent.history = rebuildHistory(this.records.slice(0, Math.min(record.toRecord, index))).messages;
        agent.pendingNotes.push(`The conversation was rewound before this turn (to record ${record.toRecord}).`);
        break;
      case 'turn_start':
        this.closeTurn(agent);
        agent.startTurn(typeof raw.turn === 'number' ? raw.turn : agent.turns.length + 1);
        agent.events.observe(record);
        break;
      case 'assistant_message':
        this.takeRequest(agent);
        agent.events.observe(record);
        this.addReply(agent, record.message, raw);
        break;
      case 'tool_call_end':
        agent.events.observe(record);
        this.endCall(agent, raw);
        break;
      case 'turn_end': {
        const fromEvents = agent.events.messages(record.fromEvents ?? 0);
        agent.events.observe(record);
        if (agent.current) agent.current.complete = true;
        if (!fromEvents) {
          this.problems.push(`record ${index + 1}: turn ${record.turn}'s messages are not all in its events; the turn's messages were left out.`);
          break;
        }
        agent.history.push(...fromEvents, ...record.messages);
        // A subagent's turn_end holds its messages itself (its events are not deduplicated).
        if (agent.current) this.shares.push([agent.current, [...fromEvents, ...record.messages]]);
        break;
      }
      case 'compaction':
        this.addCompaction(agent, record, raw, index);
        break;
      case 'context_rewrite': {
        const problem = applyRewrite(agent.history, record.stubbed);
        if (problem) this.problems.push(`record ${index + 1}: ${problem}; skipped.`);
        break;
      }
    }
  }

  private addCompaction(agent: AgentState, record: Extract<HistoryRecord, { type: 'compaction' }>, raw: RawRecord, index: number): void {
    let replaced: Message[] = [];
    let inserted: Message[] = [];
    if (record.replaced) {
      const { from, count } = record.replaced;
      if (from + count > agent.history.length) {
        this.problems.push(`record ${index + 1}: compaction replaces messages ${from}..${from + count - 1} but the history has ${agent.history.length}; skipped.`);
      } else {
        inserted = record.inserted ? record.inserted : record.message ? [record.message] : record.summary ? [{ role: 'user', content: record.summary }] : [];
        replaced = agent.history.splice(from, count, ...inserted);
      }
    }
    agent.current?.compactions.push({
      tokensBefore: numberOr0(raw.tokensBefore),
      tokensAfter: numberOr0(raw.tokensAfter),
      dropped: numberOr0(raw.dropped),
      summary: record.summary ?? '',
      ...(typeof raw.fallback === 'string' ? { fallback: raw.fallback } : {}),
      replaced: replaced.map((message) => this.table.idOf(message)),
      inserted: inserted.map((message) => this.table.idOf(message)),
    });
    // The loop reports a summary request's usage right after its compaction.
    if (raw.usage && typeof raw.usage === 'object') agent.compactionUsageNext = true;
  }

  private addEvent(agent: AgentState, raw: RawRecord): void {
    const turn = agent.current;
    switch (raw.type) {
      case 'tool_call_start': {
        const call = raw.call as { id?: unknown; name?: unknown; arguments?: unknown } | undefined;
        if (!turn || typeof call?.id !== 'string') return;
        const existing = agent.findCall(call.id);
        const traced: TraceToolCall = existing ?? { id: call.id, name: String(call.name ?? ''), arguments: String(call.arguments ?? ''), permission: 'not run' };
        if (!existing) turn.tools.push(traced);
        if (traced.name === 'task') agent.pendingTasks.push(traced);
        return;
      }
      case 'usage': {
        const usage = raw.usage as Usage | undefined;
        if (!usage || typeof usage !== 'object' || !turn) return;
        // The cost recorded when the request was counted; a session written before that is priced the same way now.
        const cost = typeof raw.cost === 'number' ? raw.cost : requestCost(agent.model, usage);
        if (cost !== undefined) turn.cost = (turn.cost ?? 0) + cost;
        if (agent.compactionUsageNext || turn.complete || turn.usage) {
          agent.compactionUsageNext = false;
          agent.addExtraUsage(usage);
        } else {
          this.takeRequest(agent);
          turn.usage = usage;
          const cache = cacheOf(raw.cache);
          if (cache) turn.cache = cache;
        }
        return;
      }
      case 'permission_review': {
        const call = typeof raw.id === 'string' ? agent.findCall(raw.id) : undefined;
        if (call) call.review = traceReview(raw);
        if (turn && typeof raw.cost === 'number') turn.cost = (turn.cost ?? 0) + raw.cost;
        return;
      }
      case 'goal_start':
      case 'goal_verdict':
      case 'goal_end': {
        // A goal's notices follow the turn they judge; the judge's cost is counted on it.
        const last = turn ?? agent.turns.at(-1);
        (last?.notes ?? agent.pendingNotes).push(goalNote(raw)!);
        if (last && raw.type === 'goal_verdict' && typeof raw.cost === 'number') last.cost = (last.cost ?? 0) + raw.cost;
        return;
      }
      case 'retry':
        turn?.retries.push({ attempt: numberOr0(raw.attempt), delayMs: numberOr0(raw.delayMs), error: String(raw.error ?? '') });
        return;
      case 'history_repaired':
        if (Array.isArray(raw.repairs)) turn?.repairs.push(...raw.repairs.map(String));
        return;
      case 'context_rewrite':
        if (Array.isArray(raw.stubbed)) turn?.notes.push(`Rewrite point (${String(raw.reason ?? '')}): ${raw.stubbed.length} older outputs stubbed, ${numberOr0(raw.savedTokens)} tokens out of every later request; ${numberOr0(raw.rewrittenTokens)} tokens sent past the cached prefix once.`);
        return;
      case 'tool_search':
        if (turn) addToolSearch(agent, turn, raw);
        return;
      case 'context_warning':
        if (typeof raw.contextWindow === 'number' && agent === this.main) this.reportedWindow = raw.contextWindow;
        turn?.notes.push(String(raw.message ?? ''));
        return;
      case 'protocol_error':
        turn?.notes.push(`The reply could not be read (${String(raw.reason ?? '')}): ${String(raw.error ?? '')}`);
        return;
      case 'recovered':
        (turn?.notes ?? agent.pendingNotes).push(`The file was reopened after a crash; ${numberOr0(raw.droppedBytes)} bytes of an unfinished line were cut off.`);
        return;
      case 'stop': {
        const last = turn ?? agent.turns.at(-1);
        if (last) last.stop = { reason: String(raw.reason ?? ''), ...(typeof raw.error === 'string' ? { error: raw.error } : {}) };
        this.closeTurn(agent);
        return;
      }
      default:
        // Deltas, the session header and record types this version does not know.
        return;
    }
  }

  private addReply(agent: AgentState, message: AssistantMessage, raw: RawRecord): void {
    if (!agent.current) return;
    agent.current.reply = {
      text: message.content,
      ...(message.reasoning ? { reasoning: message.reasoning } : {}),
      finishReason: typeof raw.finishReason === 'string' ? raw.finishReason : '',
      toolCalls: message.toolCalls.length,
      ...(message.citations?.length ? { citations: message.citations } : {}),
    };
    for (const call of message.toolCalls) {
      if (!agent.findCall(call.id)) agent.current.tools.push({ id: call.id, name: call.name, arguments: call.arguments, permission: 'not run' });
    }
  }

  private endCall(agent: AgentState, raw: RawRecord): void {
    const id = String(raw.id);
    let call = agent.findCall(id);
    if (!call) {
      call = { id, name: String(raw.name ?? ''), arguments: '', permission: 'not run' };
      agent.current?.tools.push(call);
    }
    const status = (['ok', 'error', 'denied'] as const).find((one) => one === raw.status) as ToolCallStatus | undefined;
    if (status) call.status = status;
    call.isError = raw.isError === true;
    call.output = String(raw.output ?? '');
    if (typeof raw.durationMs === 'number') call.durationMs = raw.durationMs;
    call.permission = status === 'denied' ? 'denied' : 'allowed';
  }

  /** The reply's text and the results are in the history's messages: point at those instead of holding a second copy. */
  private shareTexts(turn: TraceTurn, messages: Message[]): void {
    for (const message of messages) {
      if (message.role === 'assistant' && turn.reply && turn.reply.text === message.content) {
        turn.reply.messageId = this.table.idOf(message);
        delete turn.reply.text;
      } else if (message.role === 'tool') {
        const call = turn.tools.find((one) => one.id === message.toolCallId);
        if (call && call.output === message.content) {
          call.outputId = this.table.idOf(message);
          delete call.output;
        }
      }
    }
  }

  /**
   * A recorded request is the current turn's when it is the first one sent in it (a retry sends the
   * same again; a hand-off request comes after the last turn ended).
   */
  private takeSent(agent: AgentState, request: ModelRequest | undefined): void {
    const turn = agent.current;
    if (!request || !turn || turn.complete || turn.request.sent) return;
    turn.request = { ...this.table.request(request.messages), sent: true, tools: request.tools.length };
    agent.requestTaken = true;
  }

  private takeRequest(agent: AgentState): void {
    if (!agent.current || agent.requestTaken) return;
    agent.current.request = this.table.request(agent.history);
    agent.requestTaken = true;
  }

  private closeTurn(agent: AgentState): void {
    this.takeRequest(agent);
    agent.current = undefined;
  }

  /** A subagent's first record: it belongs to the first `task` call of its parent still waiting for one. */
  private newSubagent(path: string): AgentState {
    const previous = this.agents.get(path);
    if (previous) this.closeTurn(previous);
    const agent: AgentState = new AgentState(path, (): number => agent.turns.length + 1);
    this.agents.set(path, agent);
    const parent = this.agents.get(path.slice(0, path.lastIndexOf('/')));
    const call = parent?.pendingTasks.shift();
    if (call) call.subagent = { agent: path, turns: agent.turns };
    else {
      this.orphanAgents.push(agent);
      this.problems.push(`The subagent ${path} ran outside any recorded task call; its turns are listed at the end.`);
    }
    return agent;
  }
}

function numberOr0(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

/** A usage record's cache split, when it has a well-formed one. */
function cacheOf(value: unknown): TraceTurn['cache'] | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const { read, written, uncached, why } = value as Record<string, unknown>;
  if (typeof read !== 'number' || typeof written !== 'number' || typeof uncached !== 'number') return undefined;
  return { read, written, uncached, ...(typeof why === 'string' ? { why } : {}) };
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** A tool_search event: the deferral (saved on this and every later request) or one search, as the turn's data and a note. */
function addToolSearch(agent: AgentState, turn: TraceTurn, raw: RawRecord): void {
  if (raw.action === 'deferred') {
    const deferred = strings(raw.deferred);
    agent.toolSearchSaved = numberOr0(raw.savedTokens);
    turn.toolSearch = { ...turn.toolSearch, savedTokens: agent.toolSearchSaved, deferred };
    turn.notes.push(`Tool search: ${deferred.length} tools deferred (${deferred.slice(0, 5).join(', ')}${deferred.length > 5 ? ', …' : ''}); about ${agent.toolSearchSaved.toLocaleString('en-US')} tokens of schemas (of ${numberOr0(raw.fullTokens).toLocaleString('en-US')}) not sent on this and every later request.`);
    return;
  }
  if (raw.action !== 'search') return;
  const search = { query: String(raw.query ?? ''), results: strings(raw.results), loaded: strings(raw.loaded) };
  turn.toolSearch = { savedTokens: turn.toolSearch?.savedTokens ?? agent.toolSearchSaved ?? 0, ...turn.toolSearch, searches: [...(turn.toolSearch?.searches ?? []), search] };
  turn.notes.push(`tool_search "${search.query}": ${search.results.length ? search.results.join(', ') : 'nothing found'}${search.loaded.length ? `; loaded ${search.loaded.length}` : ''}.`);
}

function traceReview(raw: RawRecord): TraceReview {
  const reviewer = raw.reviewer as { provider?: unknown; model?: unknown } | undefined;
  return {
    tier: String(raw.tier ?? ''),
    verdict: String(raw.verdict ?? ''),
    reason: String(raw.reason ?? ''),
    ...(reviewer && typeof reviewer.model === 'string' ? { reviewer: `${String(reviewer.provider ?? '')}/${reviewer.model}` } : {}),
    ...(typeof raw.digest === 'string' ? { digest: raw.digest } : {}),
    ...(typeof raw.cost === 'number' ? { cost: raw.cost } : {}),
    ...(raw.handedBack === true ? { handedBack: true } : {}),
  };
}
