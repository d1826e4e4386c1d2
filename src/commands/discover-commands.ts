import { join, relative, sep } from 'node:path';
import { displayPath } from '../memory/memory-paths.js';
import { parseAllowedTools } from '../skills/allowed-tools.js';
import { parseFrontMatter, textField } from '../skills/front-matter.js';
import { userFileRoots } from '../workspace/own-file-roots.js';
import { ANYWHERE, tryReadOwnText, type ReadRule } from '../workspace/read-own-file.js';
import { walkConfined } from '../workspace/walk-confined.js';
import { projectDirs, type Scope } from '../skills/search-roots.js';
import { userConfigDir } from '../memory/memory-paths.js';
import { tomlPackage } from './toml-package.js';
import { homedir } from 'node:os';

/** A prompt file run as `/name args`: Markdown with front matter, or a Gemini CLI TOML file. */
export interface CustomCommand {
  /** `review`, or `frontend:review` for frontend/review.md. */
  name: string;
  description: string | undefined;
  argumentHint: string | undefined;
  allowedTools: string[] | undefined;
  model: string | undefined;
  /** The prompt with its placeholders ($ARGUMENTS, $1, {{args}}, !`cmd`, !{cmd}). */
  template: string;
  format: 'markdown' | 'toml';
  scope: Scope;
  origin: string;
}

export interface CommandCatalog {
  commands: CustomCommand[];
  warnings: string[];
}

const PROJECT_DIRS = ['.vibe-agent/commands', '.claude/commands', '.gemini/commands'] as const;
const MAX_COMMAND_BYTES = 128 * 1024;
const MAX_FILES = 500;

function userCommandDirs(env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME || homedir();
  return [join(userConfigDir(env), 'commands'), join(home, '.claude', 'commands'), join(home, '.gemini', 'commands')];
}

/**
 * Project commands (the workspace, then each parent up to the repository root, nearer first, as
 * skills are found) win over user ones; within a folder, .vibe-agent, .claude, .gemini.
 */
export function discoverCommands(workspace: string, env: NodeJS.ProcessEnv = process.env): CommandCatalog {
  const commands = new Map<string, CustomCommand>();
  const warnings: string[] = [];
  const roots = [
    ...projectDirs(workspace).flatMap((dir) => PROJECT_DIRS.map((sub) => ({ dir: join(dir, sub), scope: 'project' as const, within: [dir] }))),
    ...userCommandDirs(env).map((dir) => ({ dir, scope: 'user' as const, within: userFileRoots(env) })),
  ];
  for (const root of roots) {
    for (const file of listCommandFiles(root.dir, root.within, warnings, env)) {
      const loaded = loadCommand(root.dir, file, root.scope, root.within, env);
      if ('warning' in loaded) {
        warnings.push(loaded.warning);
        continue;
      }
      if (commands.has(loaded.name)) continue;
      commands.set(loaded.name, loaded);
    }
  }
  return { commands: [...commands.values()].sort((a, b) => a.name.localeCompare(b.name)), warnings };
}

/** The folder's .md and .toml files; the folder itself and links in it must stay inside `within`. */
function listCommandFiles(dir: string, within: ReadRule['within'], warnings: string[], env: NodeJS.ProcessEnv): string[] {
  const files: string[] = [];
  walkConfined(dir, {
    within,
    links: within === ANYWHERE ? ANYWHERE : 'inside-root',
    file: (path) => {
      if (!/\.(md|toml)$/.test(path)) return;
      files.push(path);
      return files.length < MAX_FILES;
    },
    skipped: (path, reason) => {
      if (path === dir || /\.(md|toml)$/.test(path)) warnings.push(`${displayPath(path, env)}: skipped, ${reason}`);
    },
  });
  return files.sort();
}

function loadCommand(dir: string, file: string, scope: Scope, within: ReadRule['within'], env: NodeJS.ProcessEnv): CustomCommand | { warning: string } {
  const origin = displayPath(file, env);
  const name = relative(dir, file).replace(/\.(md|toml)$/, '').split(sep).join(':').toLowerCase();
  const read = tryReadOwnText(file, { within, maxBytes: MAX_COMMAND_BYTES });
  if (!read.ok) return { warning: `${origin}: skipped, ${read.reason}` };
  if (file.endsWith('.toml')) return loadToml(read.text, name, scope, origin);
  const parsed = parseFrontMatter(read.text);
  if (!parsed.ok) return { warning: `${origin}:${parsed.line}: malformed front matter, command skipped: ${parsed.message}` };
  const data = parsed.data;
  return {
    name,
    description: textField(data, 'description'),
    argumentHint: textField(data, 'argument-hint'),
    allowedTools: parseAllowedTools(data['allowed-tools']),
    model: textField(data, 'model'),
    template: parsed.body,
    format: 'markdown',
    scope,
    origin,
  };
}

function loadToml(text: string, name: string, scope: Scope, origin: string): CustomCommand | { warning: string } {
  let data: Record<string, unknown>;
  try {
    data = tomlPackage().parse(text) as Record<string, unknown>;
  } catch (error) {
    const line = (error as { line?: number }).line;
    return { warning: `${origin}${line ? `:${line}` : ''}: malformed TOML, command skipped: ${(error as Error).message.split('\n')[0]}` };
  }
  if (typeof data.prompt !== 'string') return { warning: `${origin}:1: no "prompt" string, command skipped` };
  return {
    name,
    description: typeof data.description === 'string' ? data.description : undefined,
    argumentHint: undefined,
    allowedTools: undefined,
    model: undefined,
    template: data.prompt,
    format: 'toml',
    scope,
    origin,
  };
}
