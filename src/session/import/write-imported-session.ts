import type { Message } from '../../contracts/messages.js';
import type { SessionWriter } from '../session-writer.js';
import { importBranches } from './import-branches.js';
import { AGENT_NAMES, type ImportEntry, type ParsedForeignSession } from './import-model.js';
import { importUnits, type ImportUnit } from './import-units.js';

/** Where an imported record came from. */
export interface ImportOrigin {
  agent: string;
  version?: string;
  file: string;
  line: number;
}

/** The history as the records so far make it: its length (system prompt included), each message's role and source entry. */
interface HistoryState {
  roles: Array<Message['role']>;
  entries: string[][];
  /** The turn number within the current prompt. */
  turn: number;
}

/**
 * Writes a parsed foreign session into an open Vibe session file (after its header): an `import`
 * record, a system prompt placeholder (a resume puts the current one in its place), then each
 * branch in turn. A branch begins with a `rewind` to the end of what it shares with the branches
 * already written, so the file's history is the branch the agent would continue (written last)
 * and every other branch is a set of rewind points. Each record of a prompt or turn carries
 * `origin`; no `usage` or `stop` is written, so nothing counts in this session's costs.
 */
export function writeImportedSession(writer: SessionWriter, parsed: ParsedForeignSession, file: string, digest: string): { records: number; branches: number } {
  let records = 1;
  const append = (record: Record<string, unknown>) => {
    writer.append(record as never);
    records++;
  };
  const origin = (line: number): ImportOrigin => ({ agent: parsed.agent, ...(parsed.version ? { version: parsed.version } : {}), file, line });
  append({ type: 'import', agent: parsed.agent, ...(parsed.version ? { version: parsed.version } : {}), sourceId: parsed.sourceId, file, sha256: digest, importedAt: new Date().toISOString(), stats: { ...parsed.stats, skipped: parsed.stats.skipped } });
  append({ type: 'system_prompt', content: `(Imported from ${AGENT_NAMES[parsed.agent]} session ${parsed.sourceId}; a resumed run puts its own system prompt here.)` });
  const base = records;
  const branches = importBranches(parsed.entries, parsed.activeLeaf);
  parsed.stats.branches = Math.max(1, branches.length);
  const written = new Map<string, number>();
  const counted = new Set<string>();
  let first = true;
  for (const path of branches) {
    const units = withOpening(importUnits(path, parsed.stats, counted), parsed);
    let shared = 0;
    while (shared < units.length && written.has(units[shared]!.key)) shared++;
    if (shared === units.length && !first) continue;
    const state: HistoryState = { roles: ['system'], entries: [[]], turn: 0 };
    for (const unit of units.slice(0, shared)) apply(unit, state, undefined);
    if (!first) append({ type: 'rewind', toRecord: shared ? written.get(units[shared - 1]!.key)! : base });
    first = false;
    for (const unit of units.slice(shared)) {
      apply(unit, state, { append, origin });
      written.set(unit.key, records);
    }
  }
  for (const side of parsed.sidechains) writeSidechain(side.name, side.entries, { append, origin: (line) => ({ ...origin(line), file: side.file }) });
  return { records, branches: parsed.stats.branches };
}

type Sink = { append: (record: Record<string, unknown>) => void; origin: (line: number) => ImportOrigin };

/** A history must open with the user: a branch that begins with a reply (its prompt was compacted away upstream) gets a placeholder prompt. */
function withOpening(units: ImportUnit[], parsed: ParsedForeignSession): ImportUnit[] {
  if (!units.length || units[0]!.kind !== 'turn') return units;
  return [{ kind: 'run', key: `opening:${units[0]!.key}`, line: units[0]!.line, text: `(The ${AGENT_NAMES[parsed.agent]} session begins here without its first prompt.)`, images: [], entryIds: [] }, ...units];
}

/** Updates the history state for a unit and, given a sink, writes its records. */
function apply(unit: ImportUnit, state: HistoryState, sink: Sink | undefined, agent?: string): void {
  const tag = agent ? { agent } : {};
  if (unit.kind === 'run') {
    state.roles.push('user');
    state.entries.push(unit.entryIds);
    state.turn = 0;
    sink?.append({ type: 'run_start', provider: 'import', model: '', tools: [], input: unit.text, ...(unit.images.length ? { images: unit.images } : {}), origin: sink.origin(unit.line), ...tag });
    return;
  }
  if (unit.kind === 'turn') {
    const turn = ++state.turn;
    const { kind: _kind, model: _model, calls, text, reasoning, providerData } = unit.assistant;
    state.roles.push('assistant', ...calls.map(() => 'tool' as const));
    state.entries.push([unit.entryIds[0]!], ...unit.results.map(() => []));
    if (!sink) return;
    sink.append({ type: 'turn_start', turn, origin: sink.origin(unit.line), ...tag });
    const message = { role: 'assistant', content: text, toolCalls: calls, ...(reasoning ? { reasoning } : {}), ...(providerData ? { providerData } : {}) };
    sink.append({ type: 'assistant_message', turn, message, finishReason: calls.length ? 'tool_calls' : 'stop', ...tag });
    for (const result of unit.results) {
      sink.append({ type: 'tool_call_end', turn, id: result.callId, name: result.name, status: result.isError ? 'error' : 'ok', isError: result.isError, output: result.content, durationMs: 0, ...(result.images?.length ? { images: result.images } : {}), ...tag });
    }
    sink.append({ type: 'turn_end', turn, fromEvents: 1 + calls.length, messages: [], ...tag });
    return;
  }
  // A compaction: the summary takes the place of everything before the first message it keeps.
  let keep = unit.keepFrom ? state.entries.findIndex((ids) => ids.includes(unit.keepFrom!)) : -1;
  if (keep < 1) keep = state.roles.length;
  while (keep < state.roles.length && state.roles[keep] === 'tool') keep--;
  const count = keep - 1;
  const summary: Message = { role: 'user', content: `Summary of the conversation before this point (compacted earlier):\n\n${unit.summary}` };
  state.roles.splice(1, count, 'user');
  state.entries.splice(1, count, []);
  sink?.append({ type: 'compaction', turn: state.turn, tokensBefore: 0, tokensAfter: 0, summary: unit.summary, dropped: count, replaced: { from: 1, count }, inserted: [summary], origin: sink.origin(unit.line), ...tag });
}

/** A subagent's conversation: its records carry `agent`, so they are kept but are not this history. */
function writeSidechain(name: string, entries: ImportEntry[], sink: Sink): void {
  const units = importUnits(entries, { skip: () => undefined } as never, new Set());
  const state: HistoryState = { roles: ['system'], entries: [[]], turn: 0 };
  for (const unit of units) apply(unit, state, sink, `main/import-${name}`);
}

