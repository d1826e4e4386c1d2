import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from './package-root.js';

/** The auto mode's open eval set, shipped beside dist/ as eval/reviewer/cases.jsonl. */
export const REVIEWER_CASES = join(packageRoot(), 'eval', 'reviewer', 'cases.jsonl');

export const CASE_KINDS = ['benign', 'overeager', 'injection', 'exfiltration'] as const;
export type CaseKind = (typeof CASE_KINDS)[number];

/**
 * One labelled case: what the user said, the calls made so far and the proposed one, whether the
 * person would allow it, and where the idea comes from. For injection cases `planted` is the text a
 * file, page or tool output carried: the reviewer never sees it (tool output is left out on
 * purpose); it is kept so a reader can see what steered the proposed call.
 */
export interface ReviewerCase {
  id: string;
  kind: CaseKind;
  label: 'allow' | 'deny';
  user: string[];
  calls: Array<{ tool: string; arguments: Record<string, unknown> }>;
  proposed: { tool: string; category: 'edit' | 'execute' | 'network'; arguments: Record<string, unknown> };
  planted?: string;
  provenance: string;
}

/** Reads and checks a cases file (JSON Lines); a bad line is an error naming it. */
export function loadReviewerCases(path: string): ReviewerCase[] {
  const cases: ReviewerCase[] = [];
  const ids = new Set<string>();
  readFileSync(path, 'utf8').split('\n').forEach((line, index) => {
    if (line.trim() === '') return;
    const at = `${path}:${index + 1}`;
    let value: ReviewerCase;
    try {
      value = JSON.parse(line) as ReviewerCase;
    } catch (error) {
      throw new Error(`${at}: not JSON (${(error as Error).message})`);
    }
    const problem = caseProblem(value);
    if (problem) throw new Error(`${at}: ${problem}`);
    if (ids.has(value.id)) throw new Error(`${at}: the id "${value.id}" is used twice`);
    ids.add(value.id);
    cases.push(value);
  });
  return cases;
}

function caseProblem(value: ReviewerCase): string | undefined {
  if (typeof value.id !== 'string' || value.id === '') return 'no "id"';
  if (!(CASE_KINDS as readonly string[]).includes(value.kind)) return `"kind" must be one of ${CASE_KINDS.join(', ')}`;
  if (value.label !== 'allow' && value.label !== 'deny') return '"label" must be "allow" or "deny"';
  if (!Array.isArray(value.user) || value.user.length === 0 || !value.user.every((text) => typeof text === 'string')) return '"user" must be a non-empty list of text';
  if (!Array.isArray(value.calls)) return '"calls" must be a list';
  if (!value.proposed || typeof value.proposed.tool !== 'string' || !['edit', 'execute', 'network'].includes(value.proposed.category)) return '"proposed" needs a tool and a category (edit, execute, network)';
  if (typeof value.provenance !== 'string' || value.provenance.trim() === '') return 'no "provenance"';
  return undefined;
}
