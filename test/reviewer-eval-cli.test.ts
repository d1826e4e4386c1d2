/**
 * `vibe-agent eval --reviewer` over the open eval set, against scripted reviewers on a wire server:
 * one that always approves (its false-approve rate is every unsafe case: the share of unsafe cases
 * among those it judged) and one that always refuses (every safe case blocked).
 */
import { describe, expect, it } from 'vitest';
import { loadReviewerCases, REVIEWER_CASES } from '../src/eval/reviewer-cases.js';
import { useAutoModeCli, verdict } from './support/auto-mode-cli.js';
import { CLI_SESSION_TIMEOUT_MS } from './support/cli-process.js';

const setup = useAutoModeCli();
const cases = loadReviewerCases(REVIEWER_CASES);
const unsafe = cases.filter((one) => one.label === 'deny').length;
const safe = cases.length - unsafe;

type Report = {
  cases: number;
  auto: { falseApprove: { errors: number; cases: number; rate: number; interval: [number, number] }; falseBlock: { errors: number; cases: number }; decidedByFirstTier: number };
  reviewer: { falseApprove: { errors: number; cases: number; rate: number; interval: [number, number] }; falseBlock: { errors: number; cases: number; rate: number } };
};

describe('the reviewer eval set', { timeout: CLI_SESSION_TIMEOUT_MS * 3 }, () => {
  it('holds at least 200 labelled cases of every kind, each with its provenance', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
    for (const kind of ['benign', 'overeager', 'injection', 'exfiltration']) expect(cases.filter((one) => one.kind === kind).length).toBeGreaterThanOrEqual(20);
    expect(cases.every((one) => one.provenance.length > 20)).toBe(true);
    expect(cases.filter((one) => one.kind !== 'benign').every((one) => one.label === 'deny')).toBe(true);
  });

  it('a reviewer that always approves: its false-approve rate is every unsafe case, with a Wilson interval; the first tier still refuses some', async () => {
    const { reviewer, run } = await setup([], Array.from({ length: cases.length * 2 }, () => verdict('allow')));
    const ran = await run(['eval', '--json', '--concurrency', '4']);
    expect(ran.code, ran.stderr).toBe(0);
    const report = JSON.parse(ran.stdout) as Report;
    expect(report.cases).toBe(cases.length);
    expect(report.reviewer.falseApprove).toMatchObject({ errors: unsafe, cases: unsafe, rate: 1 });
    expect(report.reviewer.falseApprove.interval[0]).toBeGreaterThan(0.95);
    expect(report.reviewer.falseBlock).toMatchObject({ errors: 0, cases: safe, rate: 0 });
    // The hard-deny list catches unsafe calls the approving reviewer lets through.
    expect(report.auto.falseApprove.errors).toBeLessThan(unsafe);
    expect(report.auto.decidedByFirstTier).toBeGreaterThan(0);
    expect(reviewer.requests.every((request) => request.model === 'reviewer-model')).toBe(true);
  });

  it('a reviewer that always refuses blocks every safe case and approves nothing; the markdown report shows both rates', async () => {
    const { run } = await setup([], Array.from({ length: cases.length * 2 }, () => verdict('deny')));
    const ran = await run(['eval', '--json']);
    expect(ran.code, ran.stderr).toBe(0);
    const report = JSON.parse(ran.stdout) as Report;
    expect(report.reviewer.falseApprove).toMatchObject({ errors: 0, cases: unsafe });
    expect(report.reviewer.falseBlock).toMatchObject({ errors: safe, cases: safe, rate: 1 });
    // Ordinary edits inside the workspace pass the first tier whatever the reviewer says.
    expect(report.auto.falseBlock.errors).toBeLessThan(safe);

    const text = await (await setup([], Array.from({ length: cases.length * 2 }, () => verdict('deny')))).run(['eval', '--cases', REVIEWER_CASES]);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toContain(`# Auto-mode reviewer eval: reviewer-model, ${cases.length} cases`);
    expect(text.stdout).toMatch(/\| reviewer alone \| 0\.0% \(0\/\d+; 95% CI 0\.0%–\d+\.\d%\) \| 100\.0% \(\d+\/\d+; 95% CI \d+\.\d%–100\.0%\) \|/);
  });
});
