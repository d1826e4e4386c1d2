import { defineCommand } from '../../args/command-spec.js';
import { UsageError } from '../../settings/usage-error.js';

const oneId = (words: string[]): string => {
  if (words.length !== 1 || !words[0]) throw new UsageError('Usage: vibe-agent attach ID');
  return words[0];
};

export const attachSpec = defineCommand({
  name: 'attach',
  summary: 'open the terminal UI on a background session (Ctrl-D detaches; it keeps running)',
  usage: ['attach ID'],
  details: ['Its history shows first, then its live events; its approvals are asked there (the first answer from any client wins). A finished session is shown as it is.'],
  maxWords: 1,
  flags: [],
  parse: ({ words }) => ({ attachId: oneId(words) }),
  run: async (args, signal) => (await import('./attach-command.js')).attachCommand(args, signal),
});
