import { defineCommand } from '../../args/command-spec.js';
import { parseDemoArgs } from './demo-args.js';

export const demoSpec = defineCommand({
  name: 'demo',
  summary: "the course's four tasks (offline, on a scripted model, if none is configured)",
  usage: ['demo', 'demo --compare-protocols'],
  flags: [{ flag: 'compare-protocols', help: 'run the four tasks with native tool calls and with prompt-JSON, and print a table' }],
  parse: parseDemoArgs,
  run: async (args, signal) => (await import('./demo.js')).demoCommand(args, signal),
});
