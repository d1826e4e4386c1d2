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
  /**
   * For found files' paths (`fromRoot`) joined by NULs: positions inside the paths `accepts` must
   * look at, in increasing order; it accepts every other one. Absent when it must look at them all.
   */
  mustCheckIn?(records: string, ascii: boolean): number[];
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
  const secrets = options.allowSecrets === true ? undefined : secretBelow([base, resolved.absolute]);
  const secret = secrets ? secrets.test : () => false;
  const mustCheckIn = filter ? undefined : secrets ? secrets.candidatesIn : () => [];
  return {
    ok: true,
    target: {
      absolute: resolved.absolute,
      isFile: info.isFile(),
      display,
      accepts: filter ? (fromRoot) => filter(fromRoot) && !secret(fromRoot) : (fromRoot) => !secret(fromRoot),
      ...(mustCheckIn ? { mustCheckIn } : {}),
    },
  };
}
