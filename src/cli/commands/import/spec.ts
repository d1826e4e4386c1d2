import { defineCommand } from '../../args/command-spec.js';
import { parseImportArgs } from './import-args.js';

export const importSpec = defineCommand({
  name: 'import',
  summary: "list or import this workspace's Claude Code, Codex, Gemini CLI and pi sessions",
  usage: ['import', 'import PATH|ID [--resume ["next message"]]', 'import --all'],
  details: [
    'With no argument: the sessions each agent keeps for this workspace, newest first (agent, date, id, prompts, size, title).',
    'PATH or ID (a unique prefix is enough) imports one as a new session, keeping tool calls, results, thinking, images, branches and compactions; --all imports every one listed.',
    'The source file is only read. The same file imported again is recognised and not duplicated.',
  ],
  maxWords: 2,
  flags: [
    { flag: 'all', help: 'import every session listed' },
    { flag: 'resume', value: '["next message"]', help: 'continue the imported session at once on the configured model (interactive in a terminal)' },
  ],
  parse: parseImportArgs,
  run: async (args, signal) => (await import('./import-command.js')).importCommand(args, signal),
});
