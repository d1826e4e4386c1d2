import type { CustomCommand } from '../../../commands/discover-commands.js';
import type { Skill } from '../../../skills/discover-skills.js';

/** `vibe-agent skills` and `/skills`: one row per skill with where it came from, then the commands. */
export function formatSkills(skills: readonly Skill[], commands: readonly CustomCommand[]): string[] {
  const lines = [skills.length ? 'Skills:' : 'No skills found (.agents/skills, .claude/skills, .vibe-agent/skills, ~/.config/vibe-agent/skills).'];
  for (const skill of skills) {
    const narrowed = skill.allowedTools ? ` [allowed-tools: ${skill.allowedTools.join(', ')}]` : '';
    lines.push(`  ${skill.name}  ${skill.description.replace(/\s+/g, ' ').slice(0, 100)}${narrowed}`, `      ${skill.scope}: ${skill.origin}`);
  }
  if (commands.length) lines.push('', 'Custom commands:', ...commands.map((command) => `  /${commandUsage(command)}  ${command.description ?? ''}  (${command.scope}: ${command.origin})`));
  return lines;
}

export function commandUsage(command: CustomCommand): string {
  return `${command.name}${command.argumentHint ? ` ${command.argumentHint}` : ''}`;
}
