import { lstat, realpath, stat } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { refusesAsSecret } from './secret-files.js';

export interface ResolveOptions {
  workspace: string;
  extraRoots?: string[];
  allowSecrets?: boolean;
  forWrite?: boolean;
}

export type ResolveResult = { ok: true; absolute: string; relative: string } | { ok: false; reason: string };

function isWithin(root: string, candidate: string): boolean {
  const rel = relative(root, candidate);
  // Only a whole ".." segment escapes; names such as "..foo" or "..\\x" on POSIX are inside.
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

async function exists(path: string): Promise<boolean> {
  try {
    await lstat(path);
    return true;
  } catch {
    return false;
  }
}

/** Realpath of a path that may not exist yet: realpath the deepest existing ancestor, re-append the rest. */
async function realpathAllowingMissing(path: string): Promise<string> {
  const missing: string[] = [];
  let current = path;
  while (!(await exists(current))) {
    const parent = dirname(current);
    if (parent === current) break;
    missing.unshift(basename(current));
    current = parent;
  }
  return join(await realpath(current), ...missing);
}

/** Resolves a model-supplied path and refuses anything that leaves the workspace (or extra roots). */
export async function resolveInWorkspace(path: string, options: ResolveOptions): Promise<ResolveResult> {
  if (path.includes('\0')) return { ok: false, reason: 'The path contains a NUL byte, which is never valid.' };
  const workspace = await realpath(options.workspace);
  const roots = [workspace];
  for (const extra of options.extraRoots ?? []) {
    try {
      roots.push(await realpath(extra));
    } catch {
      // A missing extra root simply grants nothing.
    }
  }
  const outside = (shown: string): ResolveResult => ({
    ok: false,
    reason:
      `The path ${shown} is outside the workspace ${workspace}. ` +
      `The user can allow another directory by starting the agent with --add-dir <dir>.`,
  });
  if (path === '~' || path.startsWith('~/')) {
    return {
      ok: false,
      reason: `The path ${path} starts with "~", but home-directory expansion is not performed; paths resolve against the workspace ${workspace}. Use a path inside the workspace.`,
    };
  }

  const lexical = resolve(workspace, path);
  let real: string;
  try {
    real = options.forWrite ? await realpathAllowingMissing(lexical) : await realpath(lexical);
  } catch {
    if (!roots.some((root) => isWithin(root, lexical))) return outside(path);
    return { ok: false, reason: `The path ${path} does not exist in the workspace ${workspace}.` };
  }
  const root = roots.find((r) => isWithin(r, real));
  if (root === undefined) return outside(real === lexical ? path : `${path} (which resolves to ${real})`);

  try {
    const info = await stat(real);
    if (!info.isFile() && !info.isDirectory()) {
      return { ok: false, reason: `The path ${path} is not a regular file or directory (device, FIFO or socket), so it is refused.` };
    }
  } catch {
    // Not existing is fine for writes; the ancestor has already been checked.
  }

  if (refusesAsSecret([path, real], options.allowSecrets)) {
    return {
      ok: false,
      reason: `The path ${path} looks like a secrets file (keys, credentials or .env), so it is refused. The user can allow secret files with the allowSecrets option.`,
    };
  }
  const rel = relative(root, real);
  return { ok: true, absolute: real, relative: root === workspace ? rel || '.' : real.split(sep).join('/') };
}
