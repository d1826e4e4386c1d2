import { UsageError } from '../../settings/usage-error.js';

export interface RewindArgs {
  to?: number;
  files: boolean;
  conversation: boolean;
  force: boolean;
  list: boolean;
}

const REWIND_ONLY = ['rewind-to', 'files-only', 'conversation-only', 'force', 'list'];

/** `vibe-agent rewind [--to N] [--files-only | --conversation-only] [--force] [--list] [--resume ID]`. */
export function parseRewindArgs(positionals: string[], values: Record<string, unknown>): { command: 'rewind'; rewind: RewindArgs; resume?: string } {
  if (positionals.length) throw new UsageError(`"vibe-agent rewind" takes no words (got "${positionals.join(' ')}"); pick a checkpoint with --to N (see rewind --list).`);
  if (values['files-only'] && values['conversation-only']) throw new UsageError('Give --files-only or --conversation-only, not both.');
  let to: number | undefined;
  const raw = values['rewind-to'];
  if (raw !== undefined) {
    to = Number(raw);
    if (!Number.isInteger(to) || to < 1) throw new UsageError(`--to takes a checkpoint number (see vibe-agent rewind --list), not "${String(raw)}".`);
  }
  const resume = typeof values.resume === 'string' && values.resume !== '' ? values.resume : undefined;
  return {
    command: 'rewind',
    rewind: { ...(to !== undefined ? { to } : {}), files: !values['conversation-only'], conversation: !values['files-only'], force: values.force === true, list: values.list === true },
    ...(resume ? { resume } : {}),
  };
}

/**
 * `rewind --to N` as the parser knows it (`--rewind-to`): a two-letter option of its own would be
 * every typo's closest match.
 */
export function normalizeRewindTo(words: string[]): string[] {
  if (!words.includes('rewind')) return words;
  return words.map((word) => (word === '--to' ? '--rewind-to' : word.startsWith('--to=') ? `--rewind-to=${word.slice(5)}` : word));
}

/** The rewind flags, which mean nothing to other commands. */
export function rewindFlagsGiven(values: Record<string, unknown>): string[] {
  return REWIND_ONLY.filter((flag) => values[flag] !== undefined && values[flag] !== false);
}
