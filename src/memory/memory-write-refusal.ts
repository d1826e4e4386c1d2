import { lstatSync, realpathSync } from 'node:fs';
import { dirname } from 'node:path';
import { isWithin } from '../workspace/read-own-file.js';

function realOrUndefined(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Why the project memory file may not be appended to, or undefined when it may. The remember
 * tool runs without approval, so it must write only that one file: never through a symlink
 * (a repository could ship `.vibe-agent/memory.md -> ~/.bashrc`), never outside the workspace.
 */
export function projectFileWriteRefusal(path: string, workspace: string): string | undefined {
  const root = realOrUndefined(workspace) ?? workspace;
  let info;
  try {
    info = lstatSync(path);
  } catch {
    info = undefined;
  }
  if (info?.isSymbolicLink()) return `Not remembered: ${path} is a symbolic link, and the memory file is only ever written directly.`;
  if (info && !info.isFile()) return `Not remembered: ${path} is not a regular file.`;
  // The nearest existing ancestor decides where a missing .vibe-agent directory would be created.
  let dir = dirname(path);
  while (realOrUndefined(dir) === undefined && dirname(dir) !== dir) dir = dirname(dir);
  const realDir = realOrUndefined(dir);
  if (realDir === undefined || !isWithin(root, realDir)) return `Not remembered: ${dirname(path)} leads outside the workspace ${root}.`;
  return undefined;
}
