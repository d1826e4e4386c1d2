import type { ResolveResult } from '../workspace/resolve-path.js';
import type { FileAccess } from '../tools/coding/shared/file-access.js';

/** The session's file rules (workspace, --add-dir, secret files), as its tools apply them. */
export type Confine = (absolute: string, forWrite: boolean) => Promise<ResolveResult>;

/**
 * File access for everything the ACP layer reads or writes — the tools' calls and the diff preview
 * alike — that checks each path against the session's rules before the request leaves: a path
 * outside the workspace is refused here, never sent to the editor as fs/read_text_file.
 */
export function confinedFileAccess(files: FileAccess, confine: Confine): FileAccess {
  return {
    async read(absolute, maxBytes) {
      const resolved = await confine(absolute, false);
      if (!resolved.ok) throw new Error(resolved.reason);
      return files.read(resolved.absolute, maxBytes);
    },
    async write(absolute, bytes, options) {
      const resolved = await confine(absolute, true);
      if (!resolved.ok) throw new Error(resolved.reason);
      return files.write(resolved.absolute, bytes, options);
    },
  };
}
