import type { CommandOption } from '../../args/command-options.js';

/** The flags of a task run (`vibe-agent "prompt"`, or an interactive session): no other command takes them. */
export const RUN_OPTIONS: readonly CommandOption[] = [
  { flag: 'prompt', short: 'p', value: 'TEXT', help: 'the task (or give it as the argument)' },
  { flag: 'continue', short: 'c', help: 'continue the latest session of this workspace' },
  { flag: 'resume', value: '[ID]', help: 'continue a chosen session (id or prefix; without one, list them)' },
  { flag: 'bg', help: 'run the task as a background session of the session server and return at once (docs/background.md)' },
  { flag: 'worktree', short: 'w', value: '[NAME]', help: 'with --bg: in its own git worktree on a new branch vibe/NAME (a name is made up when none is given)' },
  { flag: 'base', value: 'REF', help: 'with --bg -w: the commit the worktree starts from (default: the current HEAD, read now)' },
  { flag: 'no-session', help: 'do not save this run as a session' },
];
