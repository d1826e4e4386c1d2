import type { CommandInput } from '../../args/command-spec.js';

export interface EvalArgs {
  /** The words after `eval` (e.g. ["merge", "a.jsonl", "b.jsonl"]). */
  evalArgs?: string[];
  /** Its flags, unparsed (checked where they are used). */
  evalFlags?: { runs?: string; concurrency?: string; shard?: string; suite?: string; output?: string; 'min-pass'?: string; cases?: string };
}

const EVAL_FLAGS = ['runs', 'concurrency', 'shard', 'suite', 'output', 'min-pass', 'cases'] as const;

export function parseEvalArgs({ words, flags }: CommandInput): EvalArgs {
  return { evalArgs: words, evalFlags: Object.fromEntries(EVAL_FLAGS.flatMap((flag) => (typeof flags[flag] === 'string' ? [[flag, flags[flag]]] : []))) };
}
