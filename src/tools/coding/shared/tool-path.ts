import { resolveInWorkspace, type ResolveResult } from '../../../workspace/resolve-path.js';
import type { ToolContext } from '../../../contracts/tool.js';
import type { FileToolOptions } from './file-tool-options.js';

/** Every file tool resolves its path here: against the call's workspace, with the user's extra roots. */
export function resolveToolPath(path: string, context: ToolContext, options: FileToolOptions, forWrite: boolean): Promise<ResolveResult> {
  return resolveInWorkspace(path, {
    workspace: context.workspace,
    extraRoots: options.extraRoots ?? [],
    allowSecrets: options.allowSecrets ?? false,
    forWrite,
  });
}

/** The options read_file resolves with: the extra roots plus the read-only ones (skill folders). */
export function withReadRoots(options: FileToolOptions): FileToolOptions {
  const readRoots = options.readRoots?.() ?? [];
  return readRoots.length ? { ...options, extraRoots: [...(options.extraRoots ?? []), ...readRoots] } : options;
}
