import type { AssistantMessage, Message, ToolCall, Usage } from '../contracts/messages.js';
import type { FinishReason } from '../contracts/provider.js';
import type { ToolCallStatus } from '../contracts/tool.js';
import type { RawRecord } from '../session/read-session.js';
import { rebuildHistory } from '../session/rebuild-history.js';
import { rebuildRequests, type RebuiltRequest } from '../session/request-record.js';
import type { RewriteReason } from '../contracts/events.js';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/permission-modes.js';

/** Rewrites made before a request (an overflow's happens when the provider refuses one, and replays by itself). */
const REWRITE_REASONS = new Set<string>(['cost', 'cold_cache', 'window'] satisfies RewriteReason[]);

/** What the model answered to one recorded request. */
export type RecordedReply =
  | { kind: 'message'; message: AssistantMessage; finishReason: FinishReason }
  /** The turn-limit hand-off request: its text. */
  | { kind: 'text'; text: string }
  /** No reply was recorded (the request failed or the run was stopped). */
  | { kind: 'none' };

export interface RecordedExchange extends RebuiltRequest {
  /** The turn the request was sent in (0: before the first turn). */
  turn: number;
  reply: RecordedReply;
  /** The usage the server reported; undefined when it was estimated (the replay estimates again). */
  usage?: Usage;
}

export interface RecordedResult {
  output: string;
  isError: boolean;
  status: ToolCallStatus;
}

/** One run of a session, as replay needs it. */
export interface RecordedRun {
  provider: string;
  model: string;
  input: string;
  /**
   * The conversation before this run, as the file rebuilds it (a continued session's later runs);
   * its system prompt is replaced by the current one. Undefined for a session's first run.
   */
  history?: Message[];
  exchanges: RecordedExchange[];
  /** Each turn's tool calls, in order, as the model sent them. */
  calls: Map<number, ToolCall[]>;
  /** Tool results by call id. */
  results: Map<string, RecordedResult>;
  /** The summaries of the run's compactions, in order (their requests are the context policy's, not stored). */
  summaries: Array<{ text: string; usage?: Usage }>;
  /** The turns at which the context policy rewrote the prefix (stubbed a batch), with why: the replay rewrites at the same turns. */
  rewrites: Map<number, RewriteReason>;
  /** The permission mode the run started in, when a `mode_changed` before it says (else the settings' mode: plan mode's system prompt follows it). */
  mode?: PermissionMode;
  warnings: string[];
}

/** Why a session cannot be replayed, in a sentence for the user. */
export class NotReplayable extends Error {}

/**
 * The runs of a session file, in order: each one's requests (rebuilt from `request` records, a retry
 * of the same request counted once), the reply to each, the tool results, and the history it
 * started from. Refuses what replay does not cover: files without request records (written before
 * them), subagents.
 */
export function recordedRuns(records: RawRecord[]): RecordedRun[] {
  const { requests, warnings } = rebuildRequests(records);
  if (requests.length === 0) throw new NotReplayable('the session has no request records (written before sessions stored them, format 1, or no request was sent).');
  const child = records.find((record) => typeof record.agent === 'string');
  if (child) throw new NotReplayable(`the session ran subagents (${String(child.agent)}); replay does not cover subagents yet.`);
  const starts = records.flatMap((record, index) => (record.type === 'run_start' ? [index] : []));
  if (starts.length === 0) throw new NotReplayable('the session has no run to replay.');
  const byIndex = new Map(requests.map((request) => [request.index, request]));
  return starts.map((from, n) => {
    const run = runOf(records.slice(from, starts[n + 1] ?? records.length), (index) => byIndex.get(from + index), n === 0 ? warnings : []);
    const mode = modeBefore(records.slice(0, from));
    return { ...run, ...(mode ? { mode } : {}), ...(n === 0 ? {} : { history: rebuildHistory(records.slice(0, from)).messages }) };
  });
}

/** The one run of a session file (see recordedRuns); a continued session is refused. */
export function recordedRun(records: RawRecord[]): RecordedRun {
  const runs = recordedRuns(records);
  if (runs.length > 1) throw new NotReplayable(`the session holds ${runs.length} runs (it was continued); this covers a session of one run.`);
  return runs[0]!;
}

/** The mode the last `mode_changed` of these records set, if any. */
function modeBefore(records: RawRecord[]): PermissionMode | undefined {
  const last = records.findLast((record) => record.type === 'mode_changed');
  return PERMISSION_MODES.find((mode) => mode === last?.mode);
}

function runOf(records: RawRecord[], requestAt: (index: number) => RebuiltRequest | undefined, warnings: string[]): RecordedRun {
  const start = records[0]!;
  const run: RecordedRun = { provider: String(start.provider), model: String(start.model), input: String(start.input), exchanges: [], calls: new Map(), results: new Map(), summaries: [], rewrites: new Map(), warnings };
  let turn = 0;
  let current: RecordedExchange | undefined;
  records.forEach((record, index) => {
    const request = requestAt(index);
    if (request) {
      // The same request again with no reply in between: a retry.
      if (current && current.reply.kind === 'none' && current.digest === request.digest) return;
      current = { ...request, turn, reply: { kind: 'none' } };
      run.exchanges.push(current);
      return;
    }
    const pending = current && current.reply.kind === 'none' ? current : undefined;
    switch (record.type) {
      case 'turn_start':
        turn = Number(record.turn);
        break;
      case 'usage': {
        const usage = record.usage as Usage;
        if (pending && !usage.estimated) pending.usage = usage;
        break;
      }
      case 'assistant_message': {
        const message = record.message as AssistantMessage;
        if (pending) pending.reply = { kind: 'message', message, finishReason: record.finishReason as FinishReason };
        run.calls.set(Number(record.turn), message.toolCalls);
        break;
      }
      case 'compaction': {
        const usage = record.usage as Usage | undefined;
        if (record.fallback === undefined && typeof record.summary === 'string') run.summaries.push({ text: record.summary, ...(usage && !usage.estimated ? { usage } : {}) });
        break;
      }
      case 'context_rewrite':
        if (REWRITE_REASONS.has(String(record.reason))) run.rewrites.set(Number(record.turn), record.reason as RewriteReason);
        break;
      case 'handoff':
        if (pending) pending.reply = { kind: 'text', text: String(record.text) };
        break;
      case 'tool_call_end':
        run.results.set(String(record.id), { output: String(record.output), isError: record.isError === true, status: record.status as ToolCallStatus });
        break;
    }
  });
  return run;
}
