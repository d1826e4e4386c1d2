/** A repository with skills and commands in every supported layout, plus a user config home. */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface SkillRepo {
  root: string;
  /** The repository root (holds .git). */
  repo: string;
  /** A sub-folder of the repository the agent works in. */
  workspace: string;
  env: { HOME: string; XDG_CONFIG_HOME: string };
  write(path: string, text: string): string;
  cleanup(): void;
}

export function skillRepo(): SkillRepo {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'vibe-skills-')));
  const repo = join(root, 'repo');
  const workspace = join(repo, 'app');
  mkdirSync(join(repo, '.git'), { recursive: true });
  mkdirSync(workspace, { recursive: true });
  const env = { HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'config') };
  const write = (path: string, text: string) => {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text);
    return full;
  };
  return { root, repo, workspace, env, write, cleanup: () => rmSync(root, { recursive: true, force: true }) };
}

const SKILL_FILES: Record<string, string> = {
  'repo/.claude/skills/pdf-forms/SKILL.md':
    '---\nname: pdf-forms\ndescription: Fill in PDF forms with the bundled script.\n---\n# PDF forms\n\nRun scripts/fill.py; the field names are in reference/fields.md.\n',
  'repo/.claude/skills/pdf-forms/reference/fields.md':
    'FIELD-NAMES: name, date, signature\n',
  'repo/.claude/skills/pdf-forms/scripts/fill.py':
    'print("fill")\n',
  'repo/app/.agents/skills/release-notes/SKILL.md':
    '---\nname: release-notes\ndescription: Write release notes from the changelog.\nallowed-tools: Read, Grep\n---\nRead CHANGELOG.md and summarise it.\n',
  'repo/app/.vibe-agent/skills/broken/SKILL.md':
    '---\nname: broken\ndescription: [never closed\n---\nbody\n',
  'config/vibe-agent/skills/commit-style/SKILL.md':
    '---\ndescription: How this user writes commit messages.\n---\nImperative mood, 50 characters.\n',
};

const COMMAND_FILES: Record<string, string> = {
  'repo/app/.vibe-agent/commands/review.md':
    '---\ndescription: Review a file\nargument-hint: <file> [focus]\nallowed-tools: Read, Grep\nmodel: review-model\n---\nReview $1 with a focus on $2.\nAll arguments: $ARGUMENTS\n',
  'repo/app/.claude/commands/frontend/component.md':
    'Write a React component named $ARGUMENTS.\n',
  'repo/app/.gemini/commands/git/fix.toml':
    'description = "Fix an issue"\nprompt = """Fix the issue: {{args}}"""\n',
  'repo/app/.claude/commands/status.md':
    '---\ndescription: Explain the git status\n---\nThe status:\n!`echo STATUS-OUTPUT`\nExplain it.\n',
  'config/vibe-agent/commands/standup.md':
    '---\ndescription: Draft a standup note\n---\nDraft my standup.\n',
  'repo/app/.claude/commands/bad.md':
    '---\ndescription: "unclosed\n---\nx\n',
};

/** Skills in each layout: repo-level .claude, workspace .agents and .vibe-agent, user config; one malformed. */
export function writeSkills(fixture: SkillRepo): void {
  for (const [path, text] of Object.entries(SKILL_FILES)) fixture.write(path, text);
}

/** Commands in each layout: .vibe-agent, .claude (namespaced), .gemini TOML, and the user's own; one malformed. */
export function writeCommands(fixture: SkillRepo): void {
  for (const [path, text] of Object.entries(COMMAND_FILES)) fixture.write(path, text);
}
