import type { Tool } from '../contracts/tool.js';
import { hardDenyCommand, sensitiveWriteTarget } from './hard-deny.js';
import { insideWorkspacePaths, touchesPersistencePath } from './persistence-paths.js';
import { touchesProtectedPath } from './protected-paths.js';

/** The auto mode's deterministic answer, when it has one: no model is asked. */
export type FirstTier = { verdict: 'deny'; tier: 'hard_deny'; reason: string } | { verdict: 'allow'; tier: 'fast_path'; reason: string } | undefined;

/**
 * Hard-deny first (commands and written paths on the built-in list), then the fast path: an edit
 * whose every path lies inside the workspace and is no self-modification or persistence path
 * (symlinks resolved). Everything else goes to the reviewer.
 */
export function firstTier(tool: Pick<Tool, 'name' | 'permission' | 'readOnly' | 'needsApproval'>, args: unknown, workspace: string, protectedDirs: readonly string[]): FirstTier {
  const subject = tool.permission.subject?.(args);
  if (subject?.kind === 'shell-command') {
    const reason = hardDenyCommand(subject.value, workspace);
    if (reason) return { verdict: 'deny', tier: 'hard_deny', reason };
    return undefined;
  }
  if (subject?.kind === 'file-path' && tool.permission.category === 'edit') {
    const paths = [subject.value, ...(subject.also ?? [])];
    for (const path of paths) {
      const reason = sensitiveWriteTarget(path, workspace);
      if (reason) return { verdict: 'deny', tier: 'hard_deny', reason };
    }
    if (!insideWorkspacePaths(paths, workspace)) return undefined;
    if (touchesProtectedPath(tool, args, workspace, protectedDirs)) return undefined;
    if (touchesPersistencePath(paths, workspace)) return undefined;
    return { verdict: 'allow', tier: 'fast_path', reason: 'an edit inside the workspace that touches no self-modification or persistence path' };
  }
  if (!tool.needsApproval || tool.readOnly) return { verdict: 'allow', tier: 'fast_path', reason: 'a read' };
  return undefined;
}
