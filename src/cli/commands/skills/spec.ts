import { defineCommand } from '../../args/command-spec.js';

export const skillsSpec = defineCommand({
  name: 'skills',
  summary: 'the skills and custom commands found, and where each came from',
  usage: ['skills'],
  details: ['A custom command runs as the prompt "/name args" (.vibe-agent/commands, .claude/commands, .gemini/commands).'],
  flags: [],
  run: async (args) => (await import('./skills-command.js')).skillsCommand(args),
});
