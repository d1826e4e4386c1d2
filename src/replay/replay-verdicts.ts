import { itemsOf, RecordedReplies, type RecordedExchange } from './recorded-replies.js';
import type { RawRecord } from '../session/read-session.js';
import { rebuildHistory } from '../session/rebuild-history.js';
import type { SideModel } from '../side-model/ask-side-model.js';
import { buildSideRequest, requestDigest } from '../side-model/side-request.js';
import type { CheckRunner } from '../conversation/goal/goal-checks.js';
import { judgeGoal, judgeRequestSpec } from '../conversation/goal/goal-judge.js';
import type { CheckRun } from '../conversation/goal/goal-types.js';

type Verdict = { status: string; accepted: boolean; reason: string };

/** One recorded judge verdict sent again, and whether today's code reproduced it. */
export interface VerdictReplay {
  turn: number;
  condition: string;
  recorded: Verdict;
  now?: Verdict;
  /** What differed: the rebuilt request, or the verdict; undefined when both match. */
  difference?: string;
}

/**
 * Sends every recorded goal verdict again, the way the auto mode's reviewer verdicts are replayed
 * (replay-reviews.ts): the judge's first request is rebuilt by today's code from the
 * session's history at that verdict and must be the recorded one byte for byte (its digest); then
 * today's judge (its parser and its evidence check) reads the recorded replies offline, or with
 * `live` the request goes to that judge model. The checks it asks for are answered from the
 * record, never run again. A verdict that comes out otherwise (met or not, accepted or not) is a
 * divergence.
 */
export async function replayVerdicts(records: readonly RawRecord[], live?: SideModel): Promise<VerdictReplay[]> {
  const results: VerdictReplay[] = [];
  let start: RawRecord | undefined;
  for (const [index, record] of records.entries()) {
    if (record.type === 'goal_start') start = record;
    if (record.type !== 'goal_verdict' || !start || !Array.isArray(record.exchanges) || record.exchanges.length === 0) continue;
    results.push(await replayOne(record, record.exchanges as RecordedExchange[], start, records.slice(0, index), live));
  }
  return results;
}

async function replayOne(record: RawRecord, exchanges: RecordedExchange[], start: RawRecord, before: RawRecord[], live: SideModel | undefined): Promise<VerdictReplay> {
  const condition = String(start.condition);
  const recorded: Verdict = { status: String(record.status), accepted: record.accepted === true, reason: String(record.reason) };
  const base = { turn: Number(record.turn), condition, recorded };
  const first = exchanges[0]!;
  const input = { condition, history: rebuildHistory(before).messages, checks: Array.isArray(start.checks) ? start.checks.map(String) : [] };
  const rebuilt = requestDigest(buildSideRequest(first.request.model, judgeRequestSpec(input)));
  if (rebuilt !== first.digest) return { ...base, difference: `the rebuilt judge request differs from the recorded one (${rebuilt} ≠ ${first.digest})` };
  const side: SideModel = live ?? { provider: new RecordedReplies(exchanges), model: first.request.model };
  const judgement = await judgeGoal(side, input, recordedChecks(exchanges));
  const reason = judgement.accepted || !judgement.rejection || judgement.answer.status !== 'met' ? judgement.answer.reason : `${judgement.rejection}, so it is not met`;
  const now: Verdict = { status: judgement.answer.status, accepted: judgement.accepted, reason };
  if (now.status !== recorded.status || now.accepted !== recorded.accepted) {
    return { ...base, now, difference: `the judge now says ${now.status}${now.accepted ? ' (accepted)' : ' (not accepted)'}: ${now.reason}; recorded ${recorded.status}${recorded.accepted ? ' (accepted)' : ' (not accepted)'}: ${recorded.reason}` };
  }
  return { ...base, now };
}

/** The checks' results as the judge saw them (the `check` lines of each later request), answered in order by name. */
function recordedChecks(exchanges: RecordedExchange[]): CheckRunner {
  const seen: CheckRun[] = exchanges.slice(1).flatMap((exchange) =>
    itemsOf(exchange.request, -1)
      .filter((item) => item.kind === 'check')
      .map((item) => {
        const name = String(item.name);
        const output = String(item.output ?? '');
        // A file read's lines come back numbered ("3: text"): the evidence check matches against them.
        const lines = name.startsWith('read:') && Number(item.exit_code) === 0 ? output.split('\n').map((line) => line.replace(/^\d+: /, '')) : undefined;
        return { name, exitCode: Number(item.exit_code), output, ...(lines ? { lines } : {}) };
      }),
  );
  return async (name) => {
    const at = seen.findIndex((run) => run.name === name);
    if (at < 0) return { name, exitCode: -1, output: 'not recorded: replay runs no check' };
    return seen.splice(at, 1)[0]!;
  };
}
