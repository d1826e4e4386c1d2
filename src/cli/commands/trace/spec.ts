import { defineCommand } from '../../args/command-spec.js';
import { parseTraceArgs } from './trace-args.js';

export const traceSpec = defineCommand({
  name: 'trace',
  summary: 'a session as a page on 127.0.0.1 (turns, requests, tokens, cost), or as a file',
  usage: ['trace [SESSION] [--html FILE] [--no-open]'],
  details: ['SESSION: an id or id prefix from "vibe-agent sessions", or a .jsonl file (default: the latest session here).'],
  maxWords: 1,
  flags: [
    { flag: 'html', value: 'FILE', help: 'write the page to FILE (one self-contained HTML file) instead of serving it' },
    { flag: 'no-open', help: 'print the URL without opening a browser' },
  ],
  parse: parseTraceArgs,
  run: async (args, signal) => (await import('./trace-command.js')).traceCommand(args, signal),
});
