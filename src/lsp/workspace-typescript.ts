import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, relative, isAbsolute } from 'node:path';
import type { TrustRequest } from '../trust/decide-trust.js';
import type { FoundServer } from './find-servers.js';

const TSSERVER = join('node_modules', 'typescript', 'lib', 'tsserver.js');

/**
 * typescript-language-server runs the workspace's own node_modules/typescript when there is one, as
 * editors do: code from the repository, wherever the server itself came from.
 */
export function workspaceTsserver(found: FoundServer, workspace: string): string | undefined {
  if (found.spec.name !== 'typescript-language-server') return undefined;
  const path = join(workspace, TSSERVER);
  return existsSync(path) ? path : undefined;
}

/** The question that approves letting the server load the workspace's TypeScript. */
export function workspaceTsserverTrust(tsserver: string): TrustRequest {
  return {
    key: 'lsp:workspace-typescript',
    config: { tsserver },
    question: {
      heading: "Let typescript-language-server load this workspace's TypeScript?",
      facts: [{ label: 'program', value: tsserver, warning: 'it runs code from this repository' }],
    },
  };
}

/**
 * The server told to use a TypeScript from outside the workspace: the one installed beside the
 * server's own program (looked up from its real path, as Node would resolve it). Undefined when
 * there is none, so the server is not started rather than left to load the repository's copy.
 */
export function withOutsideTsserver(found: FoundServer, workspace: string): FoundServer | undefined {
  let dir: string;
  try {
    dir = dirname(realpathSync(found.executable));
  } catch {
    return undefined;
  }
  for (;;) {
    const candidate = join(dir, TSSERVER);
    if (existsSync(candidate) && !inside(workspace, candidate)) {
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
