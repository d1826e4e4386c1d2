import { defineCommand } from '../../args/command-spec.js';
import { parseMemoryArgs } from './memory-args.js';

export const memorySpec = defineCommand({
  name: 'memory',
  summary: 'show the memory files; memory edit opens one, memory forget TEXT removes facts',
  usage: ['memory', 'memory edit [--user]', 'memory forget TEXT [--user]'],
  words: [
    { word: 'edit', help: 'open the memory file in $VISUAL or $EDITOR' },
    { word: 'forget', usage: 'forget TEXT', maxWords: Infinity, help: 'remove the facts that contain TEXT' },
  ],
  flags: [{ flag: 'user', help: 'the user memory file instead of the project one' }],
  parse: parseMemoryArgs,
  run: async (args) => (await import('./memory-command.js')).memoryCommand(args),
});
