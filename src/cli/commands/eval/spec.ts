import { defineCommand } from '../../args/command-spec.js';
import { parseEvalArgs } from './eval-args.js';

export const evalSpec = defineCommand({
  name: 'eval',
  summary: 'run a suite of tasks N times each, checked by commands; eval merge combines shards',
  usage: ['eval [--suite DIR] [--runs N] [--concurrency K] [--shard I/N] [--min-pass RATE] [-o FILE]', 'eval merge FILE… [-o FILE]', 'eval --reviewer MODEL [--cases FILE] [--concurrency K] [-o FILE]'],
  words: [{ word: 'merge', usage: 'merge FILE…', maxWords: Infinity, help: "combine shards' result files into one report" }],
  flags: [
    { flag: 'runs', value: 'N', help: 'runs of each task (default 1)' },
    { flag: 'concurrency', value: 'K', help: 'tasks run at once (default 1)' },
    { flag: 'shard', value: 'I/N', help: 'run only the I-th of N deterministic slices (for CI matrices, Kubernetes Indexed Jobs)' },
    { flag: 'suite', value: 'DIR', help: 'a folder of task files instead of the built-in suite' },
    { flag: 'min-pass', value: 'RATE', help: 'exit 5 when fewer runs pass (0 to 1, or a percentage; default: every run must pass)' },
    { flag: 'cases', value: 'FILE', help: 'with --reviewer: a cases file (JSON Lines) instead of the built-in eval/reviewer/cases.jsonl' },
    { flag: 'output', short: 'o', value: 'FILE', help: 'write the results as JSON Lines to FILE' },
  ],
  parse: parseEvalArgs,
  run: async (args, signal) => (await import('./eval-command.js')).evalCommand(args, signal),
});
