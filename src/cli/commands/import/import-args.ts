import type { CommandInput } from '../../args/command-spec.js';
import { UsageError } from '../../settings/usage-error.js';

export interface ImportArgs {
  source?: string;
  all: boolean;
  continueAfter: boolean;
}

/** `vibe-agent import [PATH|ID] [--all] [--resume ["next message"]]`. */
export function parseImportArgs({ words, flags }: CommandInput): { command: 'import'; import: ImportArgs; prompt?: string } {
  const all = flags.all === true;
  const continueAfter = flags.resume !== undefined && flags.resume !== false;
  const [source, prompt] = words;
  if (all && source !== undefined) throw new UsageError('Give a session (PATH or ID) or --all, not both.');
  if (continueAfter && source === undefined) throw new UsageError('--resume continues one imported session: give its PATH or ID.');
  if (prompt !== undefined && !continueAfter) throw new UsageError(`import takes one session; "${prompt}" would be the next message, which only --resume sends.`);
  return { command: 'import', import: { ...(source !== undefined ? { source } : {}), all, continueAfter }, ...(prompt !== undefined ? { prompt } : {}) };
}
