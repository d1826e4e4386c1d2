import { defineCommand } from '../../args/command-spec.js';

export const indexSpec = defineCommand({
  name: 'index',
  summary: 'build the search_docs index of the knowledge folders',
  usage: ['index [--docs DIR]'],
  details: ['The folders are the knowledge setting (--docs DIR adds one; see docs/settings.md).'],
  flags: [],
  run: async (args, signal) => (await import('./index-command.js')).indexCommand(args, signal),
});
