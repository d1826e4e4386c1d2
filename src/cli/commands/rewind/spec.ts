import { defineCommand } from '../../args/command-spec.js';
import { parseRewindArgs } from './rewind-args.js';

export const rewindSpec = defineCommand({
  name: 'rewind',
  summary: 'put the files and the conversation back to a checkpoint of the latest session',
  usage: ['rewind [--to N] [--files-only | --conversation-only] [--force] [--resume ID]', 'rewind --list'],
  flags: [
    { flag: 'to', value: 'N', help: 'the checkpoint to go back to (default: the last, undoing the last turn)' },
    { flag: 'files-only', help: 'restore the files, keep the conversation' },
    { flag: 'conversation-only', help: 'rewind the conversation, keep the files' },
    { flag: 'force', help: 'overwrite files changed since the agent left them, without asking' },
    { flag: 'list', help: 'list the checkpoints' },
    { flag: 'resume', value: 'ID', help: 'the session to rewind (id or prefix; default: the latest)' },
  ],
  parse: parseRewindArgs,
  run: async (args) => (await import('./rewind-command.js')).rewindCommand(args),
});
