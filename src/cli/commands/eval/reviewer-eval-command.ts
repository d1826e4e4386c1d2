import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadReviewerCases, REVIEWER_CASES } from '../../../eval/reviewer-cases.js';
import { evalReviewer, type Rate, type ReviewerReport } from '../../../eval/reviewer-eval.js';
import type { CliArgs } from '../../args/cli-args.js';
import { EXIT } from '../../settings/exit-codes.js';
import { UsageError } from '../../settings/usage-error.js';
import { loadConfig } from '../../settings/config.js';
import { resolveSettings } from '../../setup/resolve-settings.js';
import { providerSettings } from '../../setup/provider-settings.js';
import { createReviewer } from '../../setup/reviewer-setup.js';
import { createProvider } from '../../../providers/create-provider.js';
import { resolveCliProvider } from '../../setup/provider-problem-text.js';
import { setModelPrices } from '../../../providers/pricing.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';

/**
 * `vibe-agent eval --reviewer MODEL [--cases FILE] [--concurrency K] [-o FILE]`: the auto mode's eval
 * set through the chosen reviewer, reported as false-approve and false-block rates with 95% Wilson
 * intervals, for the whole auto mode (first tier, then the reviewer) and for the reviewer alone.
 */
export async function reviewerEvalCommand(args: CliArgs, flags: { cases?: string; concurrency?: string; output?: string }, signal: AbortSignal): Promise<number> {
  let cases;
  try {
    cases = loadReviewerCases(flags.cases ?? REVIEWER_CASES);
  } catch (error) {
    throw new UsageError(`eval --reviewer: ${(error as Error).message}`);
  }
  const concurrency = flags.concurrency === undefined ? 4 : Number(flags.concurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new UsageError(`--concurrency takes a whole number of at least 1, got "${flags.concurrency}".`);
  // The cases name paths inside an empty workspace of their own; nothing in it is ever run or written.
  const workspace = mkdtempSync(join(tmpdir(), 'vibe-reviewer-eval-'));
  const env = agentEnvironment();
  // Only the settings and the provider: no tools, MCP servers or hooks start for an eval of the reviewer.
  const settings = resolveSettings(args, env, await loadConfig(process.cwd(), env, (text) => safeStderr.write(`vibe-agent: warning: ${text}\n`)));
  setModelPrices(settings.values.modelPrices);
  const resolved = resolveCliProvider(providerSettings(settings, env));
  const reviewer = await createReviewer({ ...settings.values, permissionMode: 'auto' }, { resolved, provider: await createProvider(resolved) }, env);
  try {
    let done = 0;
    const report = await evalReviewer(cases, reviewer, {
      workspace,
      concurrency,
      signal,
      onCase: () => {
        done += 1;
        if (process.stderr.isTTY) safeStderr.write(`\r${done}/${cases.length} cases`);
      },
    });
    if (process.stderr.isTTY) safeStderr.write('\n');
    if (flags.output) writeFileSync(flags.output, report.outcomes.map((outcome) => JSON.stringify(outcome)).join('\n') + '\n');
    safeStdout.write(args.json ? `${JSON.stringify({ ...report, outcomes: undefined })}\n` : renderReport(report));
    return signal.aborted ? EXIT.aborted : EXIT.answered;
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
}

function percent(rate: Rate): string {
  const p = (value: number) => `${(value * 100).toFixed(1)}%`;
  return `${p(rate.rate)} (${rate.errors}/${rate.cases}; 95% CI ${p(rate.interval[0])}–${p(rate.interval[1])})`;
}

export function renderReport(report: ReviewerReport): string {
  const lines = [
    `# Auto-mode reviewer eval: ${report.model}, ${report.cases} cases`,
    '',
    '| | false approve (unsafe allowed) | false block (safe refused) |',
    '|---|---|---|',
    `| auto mode (first tier + reviewer) | ${percent(report.auto.falseApprove)} | ${percent(report.auto.falseBlock)} |`,
    `| reviewer alone | ${percent(report.reviewer.falseApprove)} | ${percent(report.reviewer.falseBlock)} |`,
    '',
    `The first tier decided ${report.auto.decidedByFirstTier} of ${report.cases} cases with no model call. The reviewer gave no usable verdict ${report.reviewer.failed} times (each counted as a refusal).`,
    '',
    '| kind | cases | auto-mode errors | reviewer-alone errors |',
    '|---|---|---|---|',
    ...report.byKind.map((kind) => `| ${kind.kind} | ${kind.cases} | ${kind.autoErrors} | ${kind.reviewerErrors} |`),
    '',
    `Reviewer tokens: ${report.usage.inputTokens} in, ${report.usage.outputTokens} out${report.cost !== undefined ? `; $${report.cost.toFixed(4)}` : ''}.`,
  ];
  return `${lines.join('\n')}\n`;
}
