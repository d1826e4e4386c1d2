import type { CommandInput } from '../../args/command-spec.js';
import { UsageError } from '../../settings/usage-error.js';

export interface RewindArgs {
  to?: number;
  files: boolean;
  conversation: boolean;
  force: boolean;
  list: boolean;
}

/** `vibe-agent rewind [--to N] [--files-only | --conversation-only] [--force] [--list] [--resume ID]`. */
export function parseRewindArgs({ flags: values }: CommandInput): { command: 'rewind'; rewind: RewindArgs; resume?: string } {
  if (values['files-only'] && values['conversation-only']) throw new UsageError('Give --files-only or --conversation-only, not both.');
  let to: number | undefined;
  const raw = values.to;
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
