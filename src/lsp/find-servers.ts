import { readdirSync, statSync } from 'node:fs';
import { extname, isAbsolute, join, relative, resolve } from 'node:path';
import { BUILT_IN_SERVERS, configuredServer, type ServerSpec } from './server-catalog.js';
import { findOnPath } from '../contracts/find-on-path.js';

/** A server whose program was found. */
export interface FoundServer {
  spec: ServerSpec;
  executable: string;
  /** Its program lies in the workspace, or the project's config names it: it runs the repository's code. */
  fromProject: boolean;
}

/** One entry as looked up: found, or why not. */
export interface ServerLookup {
  spec: ServerSpec;
  found?: FoundServer;
  missing?: string;
}

export interface FindServersOptions {
  workspace: string;
  env: NodeJS.ProcessEnv;
  /** `lspServers` from the user's config. */
  userServers?: Record<string, unknown>;
  /** `lspServers` from the project's config (started only once trusted). */
  projectServers?: Record<string, unknown>;
  warn?(message: string): void;
}

/**
 * Every server entry (the user's, the project's, then the built-in ones), each with its program
 * found in the workspace's node_modules/.bin, then on PATH, or why it was not. No process starts.
 */
export function lookUpServers(options: FindServersOptions): ServerLookup[] {
  const specs: ServerSpec[] = [];
  for (const [servers, origin] of [[options.userServers, 'user'], [options.projectServers, 'project']] as const) {
    for (const [name, value] of Object.entries(servers ?? {})) {
      try {
        specs.push(configuredServer(name, value, origin));
      } catch (error) {
        options.warn?.((error as Error).message);
      }
    }
  }
  specs.push(...BUILT_IN_SERVERS);
  return specs.map((spec) => lookUpServer(spec, options.workspace, options.env));
}

/** One entry's program; `outsideWorkspace` skips node_modules/.bin (its copy there was not trusted). */
export function lookUpServer(spec: ServerSpec, workspace: string, env: NodeJS.ProcessEnv, outsideWorkspace = false): ServerLookup {
  const fromConfig = spec.origin === 'project';
  if (spec.command.includes('/') || spec.command.includes('\\')) {
    const path = resolve(workspace, spec.command);
    if (!isFile(path)) return { spec, missing: `${spec.command} does not exist` };
    return { spec, found: { spec, executable: path, fromProject: fromConfig || inside(workspace, path) } };
  }
  const local = join(workspace, 'node_modules', '.bin', spec.command);
  if (!outsideWorkspace && isFile(local)) return { spec, found: { spec, executable: local, fromProject: true } };
  const onPath = findOnPath(spec.command, env);
  if (onPath) return { spec, found: { spec, executable: onPath, fromProject: fromConfig || inside(workspace, onPath) } };
  return { spec, missing: `${spec.command} is neither in node_modules/.bin nor on PATH${spec.install ? `; install it with: ${spec.install}` : ''}` };
}

/** The extensions of the workspace's files, from a bounded walk (dot folders and node_modules skipped). */
export function workspaceExtensions(workspace: string, maxEntries = 3000, maxDepth = 4): Set<string> {
  const found = new Set<string>();
  let seen = 0;
  const walk = (dir: string, depth: number) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (++seen > maxEntries) return;
      if (entry.isFile()) found.add(extname(entry.name).toLowerCase());
      else if (entry.isDirectory() && depth < maxDepth && !entry.name.startsWith('.') && entry.name !== 'node_modules') walk(join(dir, entry.name), depth + 1);
    }
  };
  walk(workspace, 0);
  found.delete('');
  return found;
}

/** The first found server for a file's extension among `found`, in order. */
export function serverFor(found: readonly FoundServer[], file: string): FoundServer | undefined {
  const extension = extname(file).toLowerCase();
  return found.find((server) => server.spec.extensions.includes(extension));
}

function inside(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

function isFile(path: string): boolean {
  return statSync(path, { throwIfNoEntry: false })?.isFile() === true;
}

/** The first file (bounded walk, as workspaceExtensions) with one of these extensions: a server needs one open to know the project. */
export function firstFileWith(workspace: string, extensions: readonly string[], maxEntries = 3000, maxDepth = 4): string | undefined {
  let seen = 0;
  const walk = (dir: string, depth: number): string | undefined => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return undefined;
    }
    for (const entry of entries) {
      if (++seen > maxEntries) return undefined;
      if (entry.isFile() && extensions.includes(extname(entry.name).toLowerCase())) return join(dir, entry.name);
    }
    for (const entry of entries) {
      if (entry.isDirectory() && depth < maxDepth && !entry.name.startsWith('.') && entry.name !== 'node_modules') {
        const found = walk(join(dir, entry.name), depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  };
  return walk(workspace, 0);
}
