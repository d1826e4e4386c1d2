import type { SideParse } from '../side-model/ask-side-model.js';
import type { SideItem } from '../side-model/side-request.js';

/** The reviewer's answer, in the fixed schema its instructions give. */
export interface ReviewVerdict {
  outcome: 'allow' | 'deny';
  risk_level: 'low' | 'medium' | 'high';
  user_authorization: 'explicit' | 'implied' | 'none';
  rationale: string;
}

const KEYS = ['outcome', 'risk_level', 'user_authorization', 'rationale'];

/**
 * Reads a verdict strictly: exactly the four keys, each with an allowed value; anything else is
 * malformed (and refuses the call). An "allow" rated high risk is inconsistent, and refused too.
 * `{"checks": [...]}` asks for read-only checks; `runChecks` turns it into "check" items.
 */
export function parseReviewVerdict(value: Record<string, unknown>, runChecks?: (names: string[]) => Promise<SideItem[]>): SideParse<ReviewVerdict> | Promise<SideParse<ReviewVerdict>> {
  if ('checks' in value) {
    if (!runChecks) return { ok: false, error: 'checks were asked for where none may run' };
    const names = value.checks;
    if (Object.keys(value).length !== 1 || !Array.isArray(names) || names.length === 0 || names.length > 3 || !names.every((name) => typeof name === 'string')) {
      return { ok: false, error: '"checks" must be the only key, a list of 1 to 3 check names' };
    }
    return runChecks(names as string[]).then((more) => ({ more }));
  }
  const extra = Object.keys(value).filter((key) => !KEYS.includes(key));
  if (extra.length) return { ok: false, error: `unexpected keys ${extra.map((key) => JSON.stringify(key)).join(', ')}` };
  const { outcome, risk_level, user_authorization, rationale } = value;
  if (outcome !== 'allow' && outcome !== 'deny') return { ok: false, error: '"outcome" must be "allow" or "deny"' };
  if (risk_level !== 'low' && risk_level !== 'medium' && risk_level !== 'high') return { ok: false, error: '"risk_level" must be "low", "medium" or "high"' };
  if (user_authorization !== 'explicit' && user_authorization !== 'implied' && user_authorization !== 'none') return { ok: false, error: '"user_authorization" must be "explicit", "implied" or "none"' };
  if (typeof rationale !== 'string' || rationale.trim() === '') return { ok: false, error: '"rationale" must be a non-empty string' };
  if (outcome === 'allow' && risk_level === 'high') return { ok: false, error: 'an "allow" rated high risk is inconsistent' };
  return { ok: true, value: { outcome, risk_level, user_authorization, rationale: rationale.trim().slice(0, 500) } };
}
