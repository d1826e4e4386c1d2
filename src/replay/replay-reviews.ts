import type { Message, ToolCall } from '../contracts/messages.js';
import { itemsOf, RecordedReplies, type RecordedExchange as Exchange } from './recorded-replies.js';
import { askSideModel, type SideModel } from '../side-model/ask-side-model.js';
import { buildSideRequest, requestDigest } from '../side-model/side-request.js';
import { reviewSpec } from '../permissions/review-request.js';
import { parseReviewVerdict } from '../permissions/review-verdict.js';
import type { RawRecord } from '../session/read-session.js';


/** One recorded reviewer verdict sent again, and whether today's code reproduced it. */
export interface ReviewReplay {
  call: string;
  tool: string;
  recorded: { verdict: string; reason: string };
  now?: { verdict: string; reason: string };
  /** What differed: the rebuilt request, or the verdict; undefined when both match. */
  difference?: string;
}

/**
 * Sends every recorded reviewer request again. The request is first rebuilt by today's code from
 * the session's history at that call (the user's messages, the calls so far, the proposed call)
 * and must be byte for byte the recorded one (its digest); then, offline, the recorded reply goes
 * through today's verdict parser, or, with `live`, the request goes to that reviewer model, and
 * the verdict must be the recorded one.
 */
export async function replayReviews(records: readonly RawRecord[], live?: SideModel): Promise<ReviewReplay[]> {
  const history: Message[] = [];
  const results: ReviewReplay[] = [];
  for (const record of records) {
    if (record.type === 'run_start') history.push({ role: 'user', content: String(record.input ?? '') });
    else if (record.type === 'assistant_message' && record.message && typeof record.message === 'object') history.push(record.message as Message);
    else if (record.type === 'permission_review' && Array.isArray(record.exchanges) && record.exchanges.length > 0) {
      results.push(await replayOne(record, record.exchanges as Exchange[], history, live));
    }
  }
  return results;
}

async function replayOne(record: RawRecord, exchanges: Exchange[], history: Message[], live: SideModel | undefined): Promise<ReviewReplay> {
  const first = exchanges[0]!;
  const recordedVerdict = { verdict: String(record.verdict), reason: String(record.reason) };
  const base = { call: String(record.id), tool: String(record.name), recorded: recordedVerdict };
  const lines = itemsOf(first.request, 1);
  const workspace = lines[0];
  const proposed = lines.at(-1);
  if (workspace?.kind !== 'workspace' || proposed?.kind !== 'proposed') return { ...base, difference: 'the recorded request has no workspace or proposed item' };
  const call = findCall(history, base.call) ?? { id: base.call, name: base.tool, arguments: '' };
  const spec = reviewSpec({ history, proposed: { tool: String(proposed.tool), category: String(proposed.category), call, args: proposed.arguments }, workspace: String(workspace.root) });
  const rebuilt = buildSideRequest(first.request.model, spec);
  if (requestDigest(rebuilt) !== first.digest) return { ...base, difference: `the rebuilt request differs from the recorded one (${requestDigest(rebuilt)} ≠ ${first.digest})` };
  const side: SideModel = live ?? { provider: new RecordedReplies(exchanges), model: first.request.model };
  // The checks the reviewer asked for are read back from the record, never run again.
  const recordedChecks = async () => (exchanges[1] ? itemsOf(exchanges[1].request, -1) : []);
  const outcome = await askSideModel(side, spec, (value) => parseReviewVerdict(value, recordedChecks));
  const now = outcome.ok ? { verdict: outcome.value.outcome, reason: outcome.value.rationale } : { verdict: 'deny', reason: outcome.reason };
  if (now.verdict !== recordedVerdict.verdict) return { ...base, now, difference: `verdict ${now.verdict}, recorded ${recordedVerdict.verdict}` };
  return { ...base, now };
}

function findCall(history: readonly Message[], id: string): ToolCall | undefined {
  for (const message of history) if (message.role === 'assistant') for (const call of message.toolCalls) if (call.id === id) return call;
  return undefined;
}
