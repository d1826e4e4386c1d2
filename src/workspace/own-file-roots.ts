import { ANYWHERE, type ReadRule } from './read-own-file.js';

/**
 * Where a user-level file (our config dir, ~/.gemini, ~/.codex, ~/.claude) may really be: anywhere.
 * The user placed it, and dotfile managers (nix home-manager, stow) link such files out of the home;
 * a repository cannot. It is still opened as every own file is: regular, bounded, non-blocking.
 */
export function userFileRoots(_env: NodeJS.ProcessEnv = process.env): ReadRule['within'] {
  return ANYWHERE;
}
