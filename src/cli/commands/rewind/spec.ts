import { defineCommand } from '../../args/command-spec.js';
import { parseRewindArgs } from './rewind-args.js';

export const rewindSpec = defineCommand({
  name: 'rewind',
  summary: 'put the files and the conversation back to before a prompt of the latest session',
  usage: ['rewind [--to N] [--files-only | --conversation-only] [--force] [--resume ID]', 'rewind --list'],
  flags: [
    { flag: 'to', value: 'N', help: 'the point to go back to, as rewind --list numbers them (default: before the last prompt)' },
    { flag: 'files-only', help: 'restore the files, keep the conversation' },
    { flag: 'conversation-only', help: 'rewind the conversation, keep the files' },
    { flag: 'force', help: 'overwrite files changed since the agent left them, without asking' },
    { flag: 'list', help: 'list the points: each prompt, its time and the files it changed' },
    { flag: 'resume', value: 'ID', help: 'the session to rewind (id or prefix; default: the latest)' },
  ],
  parse: parseRewindArgs,
  run: async (args) => (await import('./rewind-command.js')).rewindCommand(args),
});
