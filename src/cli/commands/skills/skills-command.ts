import { resolve } from 'node:path';
import { discoverCommands } from '../../../commands/discover-commands.js';
import { discoverSkills } from '../../../skills/discover-skills.js';
import type { CliArgs } from '../../args/cli-args.js';
import { EXIT } from '../../settings/exit-codes.js';
import { formatSkills } from './format-skills.js';
import { safeStderr, safeStdout } from '../../display/safe-output.js';
import { agentEnvironment } from '../../../secrets/held-secrets.js';

/** `vibe-agent skills`: what was found, where from; malformed files are warnings on stderr. */
export function skillsCommand(args: CliArgs, env: NodeJS.ProcessEnv = agentEnvironment()): number {
  const workspace = resolve(args.cwd ?? process.cwd());
  const skills = discoverSkills(workspace, env);
  const commands = discoverCommands(workspace, env);
  for (const warning of [...skills.warnings, ...commands.warnings]) safeStderr.write(`vibe-agent: warning: ${warning}\n`);
  safeStdout.write(`${formatSkills(skills.skills, commands.commands).join('\n')}\n`);
  return EXIT.answered;
}
