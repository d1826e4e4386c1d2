import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { displayPath } from '../memory/memory-paths.js';
import { userFileRoots } from '../workspace/own-file-roots.js';
import { confinedRealPath, tryReadOwnText, type RefusedFileError } from '../workspace/read-own-file.js';
import { parseAllowedTools } from './allowed-tools.js';
import { parseFrontMatter, textField } from './front-matter.js';
import { searchRoots, userConfigSubdir, type Scope } from './search-roots.js';

/** A skill: a folder with SKILL.md (front matter name, description, allowed-tools) and its files. */
export interface Skill {
  name: string;
  description: string;
  /** Our tool names it narrows to while active; undefined: no narrowing. */
  allowedTools: string[] | undefined;
  /** The skill's folder (real path): read_file may read in it once the skill is loaded. */
  dir: string;
  /** Its SKILL.md. */
  file: string;
  scope: Scope;
  /** Where it came from, as shown to the user (`.claude/skills/pdf/SKILL.md`, `~/.config/…`). */
  origin: string;
  /** The instructions after the front matter. */
  body: string;
}

export interface SkillCatalog {
  skills: Skill[];
  /** Malformed or shadowed skills, each naming the file (and line). Never thrown. */
  warnings: string[];
}

export const SKILL_DIRS = ['.agents/skills', '.claude/skills', '.vibe-agent/skills'] as const;
const MAX_SKILL_BYTES = 256 * 1024;
const NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

/** Every skill in the workspace (and parents up to the repository root) and the user config dir. */
export function discoverSkills(workspace: string, env: NodeJS.ProcessEnv = process.env): SkillCatalog {
  const skills: Skill[] = [];
  const warnings: string[] = [];
  const byName = new Map<string, Skill>();
  for (const root of searchRoots(workspace, SKILL_DIRS, [userConfigSubdir('skills', env)])) {
    for (const folder of subfolders(root.dir)) {
      const file = join(root.dir, folder, 'SKILL.md');
      // A cloned repository's skill folder may not be a symlink to elsewhere: it becomes readable once loaded.
      const within = root.scope === 'project' ? [root.base] : userFileRoots(env);
      let dir: string;
      try {
        dir = confinedRealPath(join(root.dir, folder), within);
      } catch (error) {
        if ((error as RefusedFileError).code === 'EOUTSIDE' && existsSync(file)) warnings.push(`${displayPath(file, env)}: skipped, its folder ${(error as RefusedFileError).reason}`);
        continue;
      }
      const loaded = loadSkill(file, dir, folder, root.scope, env);
      if (!loaded) continue;
      if ('warning' in loaded) {
        warnings.push(loaded.warning);
        continue;
      }
      const earlier = byName.get(loaded.name);
      if (earlier) {
        warnings.push(`${loaded.origin}: skill "${loaded.name}" is shadowed by ${earlier.origin}`);
        continue;
      }
      byName.set(loaded.name, loaded);
      skills.push(loaded);
    }
  }
  return { skills, warnings };
}

function subfolders(dir: string): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}

function loadSkill(file: string, dir: string, folder: string, scope: Scope, env: NodeJS.ProcessEnv): Skill | { warning: string } | undefined {
  const origin = displayPath(file, env);
  // Inside the skill's own (real) folder, as its bundled files are.
  const read = tryReadOwnText(file, { within: [dir], maxBytes: MAX_SKILL_BYTES });
  if (!read.ok) return read.missing ? undefined : { warning: `${origin}: skipped, ${read.reason}` };
  const parsed = parseFrontMatter(read.text);
  if (!parsed.ok) return { warning: `${origin}:${parsed.line}: malformed front matter, skill skipped: ${parsed.message}` };
  const name = textField(parsed.data, 'name') ?? folder;
  const description = textField(parsed.data, 'description');
  if (!description) return { warning: `${origin}:1: no description in the front matter, skill skipped (the model picks skills by it)` };
  if (!NAME.test(name)) return { warning: `${origin}:2: name "${name}" must be lowercase letters, digits and hyphens (at most 64), skill skipped` };
  return { name, description, allowedTools: parseAllowedTools(parsed.data['allowed-tools']), dir, file, scope, origin, body: parsed.body };
}
