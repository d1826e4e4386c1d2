import type { CommandInput } from '../../args/command-spec.js';

export interface MemoryArgs {
  /** The words after `memory` (e.g. ["edit"], ["forget", "text"]). */
  memoryArgs?: string[];
  /** --user: the user memory file instead of the project one. */
  user?: boolean;
}

export function parseMemoryArgs({ words, flags }: CommandInput): MemoryArgs {
  return { memoryArgs: words, ...(flags.user ? { user: true } : {}) };
}
