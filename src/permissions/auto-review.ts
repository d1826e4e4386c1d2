import type { AuthorizeDecision, AuthorizeRequest, PermissionReview } from '../contracts/tool.js';
import { askSideModel, type SideModel, type SideOutcome } from '../side-model/ask-side-model.js';
import type { AskApproval } from '../contracts/approval.js';
import { firstTier } from './auto-first-tier.js';
import { runReviewChecks } from './review-checks.js';
import { reviewSpec } from './review-request.js';
import { parseReviewVerdict, type ReviewVerdict } from './review-verdict.js';

/** A call the auto mode refused, as a headless run lists it when it stops. */
export interface RefusedCall {
  tool: string;
  summary: string;
  reason: string;
}

export interface AutoReviewOptions {
  /** The model that reviews what the first tier leaves open; without one, all of that is refused. */
  reviewer?: SideModel;
  /** Asks the person (the TUI, an editor); absent headless. */
  ask?: AskApproval;
  /** Told when the refusals reach a limit and nobody can be asked: the run should stop (exit 4). */
  onHandBack?: (refused: readonly RefusedCall[]) => void;
  /** Refusals in a row, and in the session, that hand control back to the person (default 3 and 20). */
  limits?: { inARow: number; total: number };
}

export const DEFAULT_REFUSAL_LIMITS = { inARow: 3, total: 20 } as const;

/**
 * The auto mode past the user's rules: the first tier decides what it can with no model (the
 * built-in hard-deny list; reads and ordinary edits inside the workspace), the reviewer the rest,
 * fail-closed. Refusals are counted; at the limit the person is asked, or a headless run stops.
 */
export function createAutoReview(options: AutoReviewOptions, protectedDirs: readonly string[]) {
  const limits = options.limits ?? DEFAULT_REFUSAL_LIMITS;
  const refused: RefusedCall[] = [];
  let inARow = 0;
  let handedBack = false;

  const refuse = async (request: AuthorizeRequest, review: PermissionReview): Promise<AuthorizeDecision> => {
    inARow += 1;
    refused.push({ tool: request.tool.name, summary: request.preview.summary, reason: review.reason });
    const counted = { ...review, refusals: { inARow, total: refused.length } };
    const atLimit = inARow >= limits.inARow || refused.length % limits.total === 0;
    if (atLimit && options.ask && review.tier === 'reviewer') {
      const answer = await options.ask(
        { call: request.call, tool: request.tool.name, summary: `${request.preview.summary} (auto mode: ${inARow} refused in a row, ${refused.length} in all; this one because ${review.reason})`, ...(request.preview.detail !== undefined ? { detail: request.preview.detail } : {}) },
        request.signal,
      );
      if (request.signal.aborted) return { allowed: false, reason: 'the run was cancelled before the user answered.', review: counted };
      const allowed = answer !== 'no';
      if (allowed) inARow = 0;
      const person: PermissionReview = { ...counted, tier: 'person', verdict: allowed ? 'allow' : 'deny', reason: allowed ? `the user approved it after the reviewer refused: ${review.reason}` : `the user declined it after the reviewer refused: ${review.reason}`, handedBack: true };
      return allowed ? { allowed: true, review: person } : { allowed: false, reason: `the user declined this call (the auto mode's reviewer had refused it: ${review.reason}).`, review: person };
    }
    if (atLimit && !options.ask) {
      handedBack = true;
      options.onHandBack?.(refused);
      return { allowed: false, reason: `auto mode refused this call (${review.reason}), the ${inARow === limits.inARow ? `${inARow}th refusal in a row` : `${refused.length}th in this session`}: the run stops and hands back to the user. Do not retry; say what you were trying to do.`, review: { ...counted, handedBack: true } };
    }
    return { allowed: false, reason: `auto mode refused this call: ${review.reason}. Find a safer way to do what the user asked, or stop and say what you need from the user.`, review: counted };
  };

  /** The hard-deny list alone: it holds before the user's allow rules and a hook's allow. */
  const hardDeny = async (request: AuthorizeRequest): Promise<AuthorizeDecision | undefined> => {
    if (handedBack) return { allowed: false, reason: 'auto mode handed the run back to the user after repeated refusals; no further calls run.' };
    const first = firstTier(request.tool, request.args, request.workspace, protectedDirs);
    return first?.verdict === 'deny' ? refuse(request, { tier: 'hard_deny', verdict: 'deny', reason: first.reason }) : undefined;
  };

  /** Past the rules: the fast path, else the reviewer. */
  const decide = async (request: AuthorizeRequest): Promise<AuthorizeDecision> => {
    const first = firstTier(request.tool, request.args, request.workspace, protectedDirs);
    if (first?.verdict === 'allow') return { allowed: true, review: { tier: 'fast_path', verdict: 'allow', reason: first.reason } };
    if (first?.verdict === 'deny') return refuse(request, { tier: 'hard_deny', verdict: 'deny', reason: first.reason });
    const { reviewer } = options;
    if (!reviewer) return refuse(request, { tier: 'reviewer', verdict: 'deny', reason: 'no reviewer model is configured' });
    const spec = reviewSpec({ history: request.history ?? [], proposed: { tool: request.tool.name, category: request.tool.permission.category, call: request.call, args: request.args }, workspace: request.workspace });
    const outcome = await askSideModel(reviewer, spec, (value) => parseReviewVerdict(value, (names) => runReviewChecks(names, request.workspace)), { signal: request.signal });
    if (request.signal.aborted) return { allowed: false, reason: 'the run was cancelled while the reviewer was deciding.' };
    const review = reviewOf(reviewer, outcome);
    if (review.verdict === 'allow') {
      inARow = 0;
      return { allowed: true, review };
    }
    return refuse(request, review);
  };

  return { hardDeny, decide, refused: (): readonly RefusedCall[] => refused };
}

function reviewOf(reviewer: SideModel, outcome: SideOutcome<ReviewVerdict>): PermissionReview {
  const base = {
    tier: 'reviewer' as const,
    reviewer: { provider: reviewer.provider.name, model: reviewer.model },
    digest: outcome.exchanges[0]!.digest,
    usage: outcome.usage,
    ...(outcome.cost !== undefined ? { cost: outcome.cost } : {}),
    exchanges: outcome.exchanges,
  };
  if (!outcome.ok) return { ...base, verdict: 'deny', reason: `the reviewer gave no usable verdict (${outcome.reason})` };
  const { value } = outcome;
  return { ...base, verdict: value.outcome, reason: `${value.rationale} (risk ${value.risk_level}, user authorisation ${value.user_authorization})` };
}
