import { BUILTIN_SUITE } from '../../../eval/builtin-suite.js';
import { expandJobs, parseShard, shardJobs } from '../../../eval/jobs.js';
import { mapConcurrent } from '../../../eval/pool.js';
import { renderMarkdown } from '../../../eval/render-markdown.js';
import { sortResults, type EvalResult } from '../../../eval/result.js';
import { mergeResultFiles, resultsJsonLines, writeResults } from '../../../eval/results-file.js';
import { runJob } from '../../../eval/run-job.js';
import { summarize } from '../../../eval/summarize.js';
import { parseMinPass } from '../../../eval/min-pass.js';
import { belowMinPass } from './eval-verdict.js';
import { snapshotSuite } from '../../../eval/suite-snapshot.js';
import { loadSuite, SuiteError } from '../../../eval/task.js';
import type { CliArgs } from '../../args/cli-args.js';
import type { EvalArgs } from './eval-args.js';
import { EXIT } from '../../settings/exit-codes.js';
import { UsageError } from '../../settings/usage-error.js';
import { safeStderr, safeStdout, sanitizeText } from '../../display/safe-output.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';
import { ownRedactor } from '../../../secrets/own-redactor.js';
import { redactedJson } from '../../../session/redact.js';

/** `vibe-agent eval [--suite DIR] [--runs N] [--concurrency K] [--shard I/N] [--min-pass RATE] [-o FILE]` and `eval merge FILES…`. */
export async function evalCommand(args: CliArgs & EvalArgs, signal: AbortSignal): Promise<number> {
  const words = args.evalArgs ?? [];
  const flags = args.evalFlags ?? {};
  const minPass = parseMinPass(flags['min-pass']);
  if (typeof minPass === 'string') throw new UsageError(minPass);
  const gate = { minPass, given: flags['min-pass'] !== undefined };
  if (flags.cases !== undefined || (args as CliArgs & { reviewer?: unknown }).reviewer !== undefined) {
    if (words.length) throw new UsageError('"vibe-agent eval --reviewer" takes no words.');
    return (await import('./reviewer-eval-command.js')).reviewerEvalCommand(args, flags, signal);
  }
  try {
    if (words[0] === 'merge') {
      if (words.length < 2) throw new UsageError('Usage: vibe-agent eval merge FILE… [--min-pass RATE] [-o merged.jsonl]');
      return report(mergeResultFiles(words.slice(1)), args, flags.output, gate);
    }
    if (words.length) throw new UsageError(`"vibe-agent eval" takes no words but "merge" (got "${words[0]}"); a suite is given with --suite DIR.`);
    const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
    if (typeof shard === 'string') throw new UsageError(shard);
    const tasks = loadSuite(flags.suite ?? BUILTIN_SUITE);
    // Taken before any run starts: what the checks run from, whatever a run does to the suite's folder.
    const snapshots = new Map([...new Set(tasks.map((task) => task.suite))].map((suite) => [suite, snapshotSuite(suite)]));
    const jobs = shardJobs(expandJobs(tasks, count('--runs', flags.runs)), shard);
    const progress = createProgress(jobs.length, ownRedactor(agentEnvironment(), [args.apiKey]));
    const ran = await mapConcurrent(jobs, count('--concurrency', flags.concurrency), async (job) => {
      // Ctrl-C stops the runs in flight and starts no more; what finished is still reported.
      if (signal.aborted) return undefined;
      const result = await runJob(job, { cliFlags: passedFlags(args), env: agentEnvironment(), snapshots, signal });
      if (signal.aborted) return undefined;
      progress(result);
      return result;
    });
    const code = report(ran.filter((result) => result !== undefined), args, flags.output, gate);
    return signal.aborted ? EXIT.aborted : code;
  } catch (error) {
    if (error instanceof SuiteError) throw new UsageError(error.message);
    throw error;
  }
}

function report(ran: EvalResult[], args: CliArgs, output: string | undefined, gate: { minPass: number; given: boolean }): number {
  // A failure's reason quotes a check's output or a provider's error: the results file and stdout get it redacted.
  const redact = ownRedactor(agentEnvironment(), [args.apiKey]);
  const results = ran.map((result) => JSON.parse(redactedJson(result, redact)) as EvalResult);
  if (output) writeResults(output, results);
  safeStdout.write(args.json ? resultsJsonLines(results) : renderMarkdown(summarize(sortResults(results))));
  const below = belowMinPass(sortResults(results), gate.minPass, gate.given);
  if (!below) return EXIT.answered;
  safeStderr.write(below);
  return EXIT.belowMinPass;
}

function count(flag: string, text: string | undefined): number {
  if (text === undefined) return 1;
  const value = Number(text);
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`${flag} takes a whole number of at least 1, got "${text}".`);
  return value;
}

/** The endpoint flags a run was given go to every task's run; the rest comes from the same environment and config. */
function passedFlags(args: CliArgs): string[] {
  const pairs: Array<[string, string | number | undefined]> = [
    ['--provider', args.provider],
    ['--model', args.model],
    ['--base-url', args.baseUrl],
    ['--api-key', args.apiKey],
    ['--protocol', args.protocol],
    ['--temperature', args.temperature],
    ['--context-window', args.contextWindow],
  ];
  return pairs.flatMap(([flag, value]) => (value === undefined ? [] : [flag, String(value)]));
}

/** One line per finished run on stderr; on a terminal, a bar that redraws in place. */
function createProgress(total: number, redact: (text: string) => string): (result: EvalResult) => void {
  let done = 0;
  const tty = process.stderr.isTTY === true;
  return (result) => {
    done++;
    const line = redact(`${result.task} #${result.run}: ${result.passed ? 'passed' : `failed (${result.reason})`} in ${(result.wallMs / 1000).toFixed(1)} s`);
    if (!tty) return void safeStderr.write(`[${done}/${total}] ${line}\n`);
    const width = 20;
    const filled = Math.round((done / total) * width);
    process.stderr.write(`\r\x1b[K[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${total}  ${sanitizeText(line.slice(0, 80))}${done === total ? '\n' : ''}`);
  };
}
