import { defineCommand } from '../../args/command-spec.js';
import { parseReplayArgs } from './replay-args.js';

export const replaySpec = defineCommand({
  name: 'replay',
  summary: "send a saved session's requests again offline and compare them with the recording",
  usage: ['replay SESSION [--against]'],
  details: ['SESSION: an id or id prefix from "vibe-agent sessions", or a .jsonl file.'],
  maxWords: 1,
  flags: [{ flag: 'against', help: 'feed the recorded tool results to the configured live model and report the first turn its calls differ' }],
  parse: parseReplayArgs,
  run: async (args, signal) => (await import('./replay-command.js')).replayCommand(args, signal),
});
