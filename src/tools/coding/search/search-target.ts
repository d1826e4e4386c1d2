import { stat } from 'node:fs/promises';
import { secretBelow } from '../../../workspace/secret-files.js';
import { resolveInWorkspace } from '../../../workspace/resolve-path.js';
import type { FileToolOptions } from '../shared/file-tool-options.js';
import type { PathFilter } from './search-glob.js';

/** Files larger than this are skipped by both engines (ripgrep's --max-filesize, or the watch of its reads: rg-grep.ts). */
export const MAX_SEARCH_FILE_BYTES = 5 * 1024 * 1024;

export interface SearchTarget {
  /** Real absolute path of the directory (or file) searched. */
  absolute: string;
  isFile: boolean;
  /** How the tool's output names a file found at `fromRoot` below the target. */
  display(fromRoot: string): string;
  /** Whether a file found at `fromRoot` is reported: the glob, and secrets unless allowed. */
  accepts(fromRoot: string): boolean;
}

export type TargetResult = { ok: true; target: SearchTarget } | { ok: false; reason: string };

export async function resolveSearchTarget(
  path: string | undefined,
  workspace: string,
  options: FileToolOptions,
  filter: PathFilter | undefined,
): Promise<TargetResult> {
  const resolved = await resolveInWorkspace(path ?? '.', { workspace, extraRoots: options.extraRoots, allowSecrets: options.allowSecrets });
  if (!resolved.ok) return resolved;
  const info = await stat(resolved.absolute);
  const base = resolved.relative === '.' ? '' : resolved.relative;
  const display = (fromRoot: string) => (base === '' ? fromRoot : fromRoot === '' ? base : `${base}/${fromRoot}`);
  // The names a found file is reached by: its display path and its real one, each the target's path and `fromRoot`.
  const secret = options.allowSecrets === true ? () => false : secretBelow([base, resolved.absolute]);
  return {
    ok: true,
    target: {
      absolute: resolved.absolute,
      isFile: info.isFile(),
      display,
      accepts: filter ? (fromRoot) => filter(fromRoot) && !secret(fromRoot) : (fromRoot) => !secret(fromRoot),
    },
  };
}
