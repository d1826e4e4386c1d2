import type { Tool } from '../contracts/tool.js';
import { defineTool } from '../tools/define-tool.js';
import { bundledFiles } from './bundled-files.js';
import type { Skill } from './discover-skills.js';
import type { ToolScope } from './tool-scope.js';

/** What loading a skill changes: its folder becomes readable, its allowed-tools narrow the run. */
export interface SkillActivation {
  scope: ToolScope;
  /** Folders read_file may read (the FileToolOptions.readRoots of the run's file tools). */
  readRoots: string[];
}

/**
 * The `skill` tool: loads a skill's instructions and lists its bundled files, which read_file may
 * then read (that folder only). A skill with allowed-tools narrows the run's tools from here on.
 */
export function createSkillTool(skills: readonly Skill[], activation: SkillActivation): Tool {
  const names = skills.map((skill) => skill.name);
  return defineTool({
    name: 'skill',
    description: 'Load a skill by name (the skills are listed in the system prompt): returns its instructions and the paths of its bundled files, which read_file can then read.',
    parameters: (z) => z.object({ name: z.string().min(1) }),
    readOnly: true,
    permission: { category: 'read', subject: ({ name }) => ({ kind: 'text', value: name }) },
    async execute({ name }) {
      const skill = skills.find((candidate) => candidate.name === name);
      if (!skill) return { output: `No skill named "${name}". Skills: ${names.length ? names.join(', ') : '(none installed)'}.`, isError: true };
      if (!activation.readRoots.includes(skill.dir)) activation.readRoots.push(skill.dir);
      if (skill.allowedTools) activation.scope.narrow(skill.allowedTools, `the skill "${skill.name}"`);
      return renderSkill(skill, activation.scope.current());
    },
  });
}

function renderSkill(skill: Skill, allowed: string[] | undefined): string {
  const { files, more } = bundledFiles(skill.dir);
  const head = [`Skill "${skill.name}" loaded from ${skill.origin} (${skill.scope} skill). Its folder: ${skill.dir}`];
  if (allowed) head.push(`While it is active you may call only: ${allowed.join(', ') || '(no tools)'}.`);
  const listing = files.length
    ? ['Bundled files (read them with read_file at these paths when the instructions call for them):', ...files, ...(more ? ['(more files not listed)'] : [])]
    : ['No bundled files.'];
  return [...head, '', skill.body.trim(), '', ...listing].join('\n');
}
