import type { ImageRef, ToolCall } from '../../contracts/messages.js';
import type { EntryBody, ImportEntry, ImportStats } from './import-model.js';

type Assistant = Extract<EntryBody, { kind: 'assistant' }>;
export type ImportResult = Extract<EntryBody, { kind: 'result' }>;

/** What one step of an imported conversation becomes in a Vibe session: a prompt, a turn, or a compaction. */
export type ImportUnit =
  | { kind: 'run'; key: string; line: number; text: string; images: ImageRef[]; entryIds: string[] }
  | { kind: 'turn'; key: string; line: number; assistant: Assistant; results: ImportResult[]; entryIds: string[] }
  | { kind: 'compaction'; key: string; line: number; summary: string; keepFrom?: string };

export const MISSING_RESULT = 'tool call without a result in the source (an error result stands in for it)';

/**
 * A branch's entries as units: consecutive user messages make one prompt; a reply and the results
 * of its calls one turn (in call order; a call the source has no result for gets an error result,
 * counted); a result no call of its turn asked for is counted and left out, so the history never
 * holds a result without its call or a call without its result.
 */
export function importUnits(path: readonly ImportEntry[], stats: ImportStats, counted: Set<string>): ImportUnit[] {
  // Branches share their beginnings: each problem is counted once, by the entry it is about.
  const note = (id: string, reason: string) => {
    if (counted.has(`${id}\n${reason}`)) return;
    counted.add(`${id}\n${reason}`);
    stats.skip(reason);
  };
  const units: ImportUnit[] = [];
  let turn: Extract<ImportUnit, { kind: 'turn' }> | undefined;
  const finishTurn = () => {
    if (!turn) return;
    const first = turn.entryIds[0];
    const byCall = new Map(turn.results.map((result) => [result.callId, result]));
    turn.results = turn.assistant.calls.map((call: ToolCall) => {
      const found = byCall.get(call.id);
      if (found) return found;
      note(`${first}:${call.id}`, MISSING_RESULT);
      return { kind: 'result', callId: call.id, name: call.name, content: '(The imported session holds no result for this call; it was interrupted or never ran.)', isError: true };
    });
    turn = undefined;
  };
  for (const entry of path) {
    const body = entry.body;
    if (body.kind === 'result') {
      const owner = turn && turn.assistant.calls.some((call) => call.id === body.callId) && !turn.results.some((result) => result.callId === body.callId) ? turn : undefined;
      if (owner) {
        owner.results.push(body);
        owner.entryIds.push(entry.id);
        owner.key += `+${entry.id}`;
      } else note(entry.id, 'tool result without its call');
      continue;
    }
    finishTurn();
    const last = units.at(-1);
    if (body.kind === 'user') {
      if (last?.kind === 'run') {
        last.text = `${last.text}\n\n${body.text}`;
        last.images.push(...(body.images ?? []));
        last.entryIds.push(entry.id);
        last.key += `+${entry.id}`;
      } else units.push({ kind: 'run', key: entry.id, line: entry.line, text: body.text, images: [...(body.images ?? [])], entryIds: [entry.id] });
    } else if (body.kind === 'assistant') {
      turn = { kind: 'turn', key: entry.id, line: entry.line, assistant: body, results: [], entryIds: [entry.id] };
      units.push(turn);
    } else units.push({ kind: 'compaction', key: entry.id, line: entry.line, summary: body.summary, ...(body.keepFrom ? { keepFrom: body.keepFrom } : {}) });
  }
  finishTurn();
  return units;
}
