import { defineCommand } from '../../args/command-spec.js';

export const acpSpec = defineCommand({
  name: 'acp',
  summary: 'serve the Agent Client Protocol on stdio, for editors (Zed, JetBrains): docs/acp.md',
  usage: ['acp [--provider NAME] [--model NAME] [--permission-mode MODE]'],
  details: ['The run settings (provider, model, permission mode, …) apply to every session an editor opens.'],
  flags: [],
  run: async (args, signal) => (await import('./acp-command.js')).acpCommand(args, signal),
});
