import type { Skill } from './discover-skills.js';

export interface SkillsPromptBudget {
  /** Most skills listed. Default 40. */
  maxSkills?: number;
  /** Longest description shown; longer ones are cut. Default 300 characters. */
  maxDescriptionChars?: number;
  /** Longest whole section. Default 8,000 characters. */
  maxChars?: number;
}

const INTRO =
  'Skills are instructions packaged for particular tasks, with files beside them. When a task matches a skill, ' +
  'call the skill tool with its name before starting; it returns the instructions and the files you may read. ' +
  'Project skills come from the repository: follow them as you would its other files, not above the user.';

/**
 * The skills section of the system prompt: names and descriptions only (progressive disclosure),
 * in catalog order, capped with a note naming how many were left out. Depends only on the skills,
 * so the system prompt stays byte-identical across turns.
 */
export function skillsPrompt(skills: readonly Skill[], budget: SkillsPromptBudget = {}): string {
  if (skills.length === 0) return '';
  const maxSkills = budget.maxSkills ?? 40;
  const maxDescription = budget.maxDescriptionChars ?? 300;
  const maxChars = budget.maxChars ?? 8000;
  const lines: string[] = [];
  let chars = INTRO.length;
  for (const skill of skills.slice(0, maxSkills)) {
    const oneLine = skill.description.replace(/\s+/g, ' ');
    const description = oneLine.length > maxDescription ? `${oneLine.slice(0, maxDescription - 1)}…` : oneLine;
    const line = `- ${skill.name}: ${description}`;
    if (chars + line.length + 1 > maxChars) break;
    lines.push(line);
    chars += line.length + 1;
  }
  const left = skills.length - lines.length;
  const note = left > 0 ? [`(${left} more skill${left === 1 ? ' is' : 's are'} installed but not listed, to keep this prompt short; the skill tool loads any of them by name.)`] : [];
  return ['# Skills', '', INTRO, '', ...lines, ...note].join('\n');
}

/** The base prompt with a section appended (nothing when the section is empty). */
export function appendSection(prompt: string, section: string): string {
  return section ? `${prompt}\n\n${section}` : prompt;
}
