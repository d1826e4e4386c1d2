import { defineCommand } from '../../args/command-spec.js';

export const lspSpec = defineCommand({
  name: 'lsp',
  summary: 'the language servers code_nav would use here, and why others are not',
  usage: ['lsp'],
  flags: [],
  run: async (args) => (await import('./lsp-command.js')).lspCommand(args),
});
