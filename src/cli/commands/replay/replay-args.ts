import type { CommandInput } from '../../args/command-spec.js';
import { UsageError } from '../../settings/usage-error.js';

export interface ReplayArgs {
  /** The session (id, id prefix or .jsonl path) and whether to run a live model. */
  replay?: { session: string; against: boolean };
}

export function parseReplayArgs({ words, flags }: CommandInput): ReplayArgs {
  if (words.length !== 1) throw new UsageError('Usage: vibe-agent replay SESSION [--against] (SESSION: an id or id prefix from "vibe-agent sessions", or a .jsonl file).');
  return { replay: { session: words[0]!, against: flags.against === true } };
}
