import { defineCommand } from '../../args/command-spec.js';

export const sessionsSpec = defineCommand({
  name: 'sessions',
  summary: "this workspace's saved sessions, newest first",
  usage: ['sessions'],
  details: ['Each session can be continued (--resume ID), replayed (replay ID), shown as a page (trace ID) or rewound (rewind --resume ID).'],
  flags: [],
  run: async (args) => (await import('./sessions-command.js')).sessionsCommand(args),
});
