import { lstatSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { realOrSame } from '../session/paths.js';
import { displayPath, memoryPath, userAgentsPath } from './memory-paths.js';
import { readOwnText, type ReadRule, type RefusedFileError } from '../workspace/read-own-file.js';
import { userFileRoots } from '../workspace/own-file-roots.js';

/** Memory is cut to a few KB for the prompt anyway; a file past this is refused, not read. */
export const MAX_MEMORY_FILE_BYTES = 1024 * 1024;

export interface MemorySource {
  /** AGENTS.md-style instructions, or facts saved with the remember tool. */
  kind: 'instructions' | 'facts';
  /** What the section is called in the system prompt. */
  title: string;
  path: string;
  text: string;
}

export interface MemoryLocation {
  workspace: string;
  /** Where the agent was started; when inside the workspace, AGENTS.md files down to it are read. */
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Told about a memory file that is refused: a FIFO, a device, or over MAX_MEMORY_FILE_BYTES. */
  warn?: (message: string) => void;
}

/**
 * The memory files that exist, most general first: the user's AGENTS.md and remembered facts, then
 * AGENTS.md from the workspace root down to the current directory (CLAUDE.md where a directory has
 * no AGENTS.md), then the project's remembered facts. Later sections are more specific.
 */
export function collectMemorySources(location: MemoryLocation): MemorySource[] {
  const env = location.env ?? process.env;
  const workspace = realOrSame(location.workspace);
  const sources: MemorySource[] = [];
  const warn = location.warn ?? (() => {});
  // A cloned repository's symlink must not pull ~/.ssh/id_rsa into a request; CLAUDE.md -> AGENTS.md is fine.
  const projectRule: ReadRule = { within: [workspace], maxBytes: MAX_MEMORY_FILE_BYTES, refuseSecrets: true };
  const userRule: ReadRule = { within: userFileRoots(env), maxBytes: MAX_MEMORY_FILE_BYTES };
  const add = (kind: MemorySource['kind'], title: string, path: string, project = false) => {
    const text = readIfFile(path, project ? projectRule : userRule, warn);
    if (text !== undefined && text.trim() !== '') sources.push({ kind, title, path, text });
  };

  const userAgents = userAgentsPath(env);
  add('instructions', `User instructions (${displayPath(userAgents, env)})`, userAgents);
  const userMemory = memoryPath('user', workspace, env);
  add('facts', `Remembered for every project (${displayPath(userMemory, env)})`, userMemory);

  for (const dir of directoriesDown(workspace, location.cwd ? realOrSame(location.cwd) : workspace)) {
    const agents = join(dir, 'AGENTS.md');
    // lstat: a dangling AGENTS.md link is reported, not passed over for CLAUDE.md.
    const path = lstatSync(agents, { throwIfNoEntry: false }) ? agents : join(dir, 'CLAUDE.md');
    const shown = relative(workspace, path).split(sep).join('/');
    add('instructions', `Project instructions (${shown})`, path, true);
  }
  const projectMemory = memoryPath('project', workspace, env);
  add('facts', 'Remembered for this project (.vibe-agent/memory.md)', projectMemory, true);
  return sources;
}

/** The workspace root, then each directory down to `cwd` when `cwd` is inside the workspace. */
function directoriesDown(workspace: string, cwd: string): string[] {
  const rel = relative(workspace, cwd);
  if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return [workspace];
  const dirs = [workspace];
  let current = workspace;
  for (const part of rel.split(sep)) dirs.push((current = join(current, part)));
  return dirs;
}

function readIfFile(path: string, rule: ReadRule, warn: (message: string) => void): string | undefined {
  try {
    return readOwnText(path, rule);
  } catch (error) {
    const code = (error as RefusedFileError).code;
    if (code !== 'ENOENT') warn(`memory file ${(error as Error).message.replace(/\.$/, '')}, so it is skipped.`);
    return undefined;
  }
}
