import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, relative, isAbsolute } from 'node:path';
import type { TrustRequest } from '../trust/decide-trust.js';
import type { FoundServer } from './find-servers.js';

const TSSERVER = join('node_modules', 'typescript', 'lib', 'tsserver.js');

/** Where typescript-language-server looks for a TypeScript, in each folder from the workspace up (its MODULE_FOLDERS). */
export const SEARCHED_FOLDERS = [join('node_modules', 'typescript', 'lib'), join('.vscode', 'pnpify', 'typescript', 'lib'), join('.yarn', 'sdks', 'typescript', 'lib')];

/**
 * Every TypeScript typescript-language-server could load instead of its own: it walks from the
 * workspace up to the root and takes the first of SEARCHED_FOLDERS that exists (a Yarn SDK, a
 * pnpify folder, a monorepo root's node_modules above the workspace), as editors do. Each is code
 * from the repository or around it, so all of them are asked about, before the server starts, in
 * the one trust question; their real paths are shown.
 */
export function workspaceTsservers(found: FoundServer, workspace: string): string[] {
  if (found.spec.name !== 'typescript-language-server') return [];
  const paths: string[] = [];
  for (let dir = workspace; ; dir = dirname(dir)) {
    for (const folder of SEARCHED_FOLDERS) {
      const lib = join(dir, folder);
      if (existsSync(lib)) paths.push(realOrAsIs(join(lib, 'tsserver.js')));
    }
    if (dirname(dir) === dir) return [...new Set(paths)];
  }
}

function realOrAsIs(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** The question that approves letting the server load any of these TypeScripts. */
export function workspaceTsserverTrust(tsservers: string[]): TrustRequest {
  return {
    key: 'lsp:workspace-typescript',
    config: { tsservers },
    question: {
      heading: "Let typescript-language-server load the TypeScript this workspace (or a folder above it) provides?",
      facts: tsservers.map((path) => ({ label: 'program', value: path, warning: 'it runs code from this repository or a folder around it' })),
    },
  };
}

/**
 * The server told to use a TypeScript from outside the workspace: the one installed beside the
 * server's own program (looked up from its real path, as Node would resolve it). Undefined when
 * there is none, so the server is not started rather than left to load the repository's copy.
 */
export function withOutsideTsserver(found: FoundServer, workspace: string, refused: readonly string[] = []): FoundServer | undefined {
  let dir: string;
  try {
    dir = dirname(realpathSync(found.executable));
  } catch {
    return undefined;
  }
  for (;;) {
    const candidate = join(dir, TSSERVER);
    if (existsSync(candidate) && !inside(workspace, candidate) && !refused.includes(realOrAsIs(candidate))) {
      const options = (found.spec.initializationOptions ?? {}) as { tsserver?: Record<string, unknown> };
      return { ...found, spec: { ...found.spec, initializationOptions: { ...options, tsserver: { ...options.tsserver, path: candidate } } } };
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}
