import type { Tool } from '../contracts/tool.js';
import { discoverSkills, type SkillCatalog } from './discover-skills.js';
import { deferredTool } from '../tools/deferred-tool.js';
import { TOOL_SPECS } from '../tools/tool-specs.js';
import { builtInValidator } from '../tools/built-in-validator.js';
import { skillsPrompt } from './skills-prompt.js';
import { ToolScope } from './tool-scope.js';

/** Skills wired for a run: give `readRoots` to the file tools and `gate` to the ToolRegistry. */
export interface SkillSetup {
  catalog: SkillCatalog;
  /** The system prompt section (names and descriptions), '' without skills. */
  prompt: string;
  /** The `skill` tool, when there are skills (its code, and zod, load at its first call). */
  tool: Tool | undefined;
  scope: ToolScope;
  /** Folders of the skills loaded so far. */
  readRoots: () => readonly string[];
  /** For RegistryOptions.gate: refuses tools (and, given the arguments, calls) outside the active allowed-tools. */
  gate: (tool: Tool, args?: unknown) => string | undefined;
}

export function setUpSkills(workspace: string, env: NodeJS.ProcessEnv = process.env, scope: ToolScope = new ToolScope()): SkillSetup {
  const catalog = discoverSkills(workspace, env);
  const roots: string[] = [];
  return {
    catalog,
    prompt: skillsPrompt(catalog.skills),
    tool: catalog.skills.length ? deferredTool(TOOL_SPECS.skill!, async () => (await import('./skill-tool.js')).createSkillTool(catalog.skills, { scope, readRoots: roots }), { specFromBuild: true, validator: builtInValidator('skill') }) : undefined,
    scope,
    readRoots: () => roots,
    gate: (tool, args) => scope.refusal(tool.name, args),
  };
}
