import type { Tool } from '../contracts/tool.js';
import type { AskTrust } from '../trust/trust-question.js';
import { shellEnvironment, type ShellEnvOptions } from '../tools/coding/shell/shell-env.js';
import { deferredTool } from '../tools/deferred-tool.js';
import type { FileToolOptions } from '../tools/coding/shared/file-tool-options.js';
import type { WriteObserver } from '../tools/coding/shared/observe-write.js';
import { TOOL_SPECS } from '../tools/tool-specs.js';
import { builtInValidator } from '../tools/built-in-validator.js';
import { lookUpServer, lookUpServers, workspaceExtensions, type FoundServer, type ServerLookup } from './find-servers.js';
import type { LspServers } from './lsp-servers.js';

export interface CodeNavSetupOptions {
  workspace: string;
  env: NodeJS.ProcessEnv;
  /** Which of the user's keys the servers may still see (the rest are taken out, as for bash). */
  childEnv: ShellEnvOptions;
  userServers: Record<string, unknown>;
  projectServers: Record<string, unknown> | undefined;
  /** --trust-project-mcp: a project's server starts without asking, like a project's MCP server. */
  trustAll: boolean;
  ask: AskTrust | undefined;
  warn(message: string): void;
  /** The file tools' options (roots, secrets, tracker), which a rename follows. */
  files: FileToolOptions;
}

export interface CodeNavSetup {
  tool: Tool;
  servers: readonly FoundServer[];
  /** A file the agent wrote (`created`: it did not exist before): running servers are told. */
  written(absolute: string, created: boolean): Promise<void>;
  /**
   * Diagnostics after an edit of this file from the language server that has it open; undefined when
   * none does (the project's checkers then report, as before code_nav).
   */
  diagnosticsFor(absolute: string): Promise<WriteObserver | undefined>;
  /** Shuts the servers that were started down. */
  close(): Promise<void>;
}

/**
 * code_nav for this workspace, when a server is found for a kind of file it has: nothing starts
 * until the model's first call. A server that would run the repository's own code (its
 * node_modules/.bin, the project config's lspServers) is used only once trusted, as a project's
 * MCP server is; a built-in one then falls back to the copy on PATH.
 */
export async function setUpCodeNav(options: CodeNavSetupOptions): Promise<CodeNavSetup | undefined> {
  const usable = await admittedServers(options);
  if (!usable.length) return undefined;
  let servers: LspServers | undefined;
  const tool = deferredTool(TOOL_SPECS.code_nav!, async () => {
    const [{ LspServers }, { createCodeNavTool }] = await Promise.all([import('./lsp-servers.js'), import('./code-nav-tool.js')]);
    servers ??= new LspServers({ found: usable, workspace: options.workspace, env: shellEnvironment(options.env, options.childEnv) });
    return createCodeNavTool({ servers, files: options.files, ...(options.files.tracker ? { tracker: options.files.tracker } : {}) });
  }, { specFromBuild: true, validator: builtInValidator('code_nav') });
  return {
    tool,
    servers: usable,
    written: async (absolute, created) => servers?.written(absolute, created),
    diagnosticsFor: async (absolute) => {
      const open = servers?.openClient(absolute);
      if (!open) return undefined;
      return (await import('./lsp-diagnostics.js')).lspDiagnosticsObserver(open.client, open.server.spec.name, open.server.spec.origin === 'built-in');
    },
    close: async () => servers?.close(),
  };
}

/** The found servers for the workspace's kinds of file, the project's ones only once trusted. */
export async function admittedServers(options: Omit<CodeNavSetupOptions, 'files' | 'childEnv'>): Promise<FoundServer[]> {
  const present = workspaceExtensions(options.workspace);
  const lookups = lookUpServers({ workspace: options.workspace, env: options.env, userServers: options.userServers, ...(options.projectServers ? { projectServers: options.projectServers } : {}), warn: options.warn });
  const usable: FoundServer[] = [];
  for (const lookup of lookups) {
    if (!lookup.found || !lookup.spec.extensions.some((ext) => present.has(ext))) continue;
    // One that would never answer (an earlier one covers all its files) is neither asked about nor kept.
    if (lookup.spec.extensions.every((ext) => usable.some((server) => server.spec.extensions.includes(ext)))) continue;
    const admitted = await admit(lookup, options);
    if (admitted) usable.push(admitted);
  }
  return usable;
}

async function admit(lookup: ServerLookup, options: Omit<CodeNavSetupOptions, 'files' | 'childEnv'>): Promise<FoundServer | undefined> {
  const found = await admitProgram(lookup, options);
  return found && admitWorkspaceTypescript(found, options);
}

/** A server that would load the workspace's TypeScript does so only once trusted; else one from outside it. */
async function admitWorkspaceTypescript(found: FoundServer, options: Omit<CodeNavSetupOptions, 'files' | 'childEnv'>): Promise<FoundServer | undefined> {
  const { workspaceTsservers, workspaceTsserverTrust, withOutsideTsserver } = await import('./workspace-typescript.js');
  const tsservers = workspaceTsservers(found, options.workspace);
  if (!tsservers.length || options.trustAll || found.fromProject) return found;
  const [{ TrustStore }, { decideTrust }] = await Promise.all([import('../trust/trust-store.js'), import('../trust/decide-trust.js')]);
  if (await decideTrust(new TrustStore(options.workspace, options.env), workspaceTsserverTrust(tsservers), options.ask)) return found;
  const outside = withOutsideTsserver(found, options.workspace, tsservers);
  if (!outside) options.warn(`language server ${found.spec.name} not started: it would load a TypeScript from this workspace or a folder above it (${tsservers.join(', ')}), which is not approved, and no other TypeScript is installed beside ${found.executable}.`);
  return outside;
}

async function admitProgram(lookup: ServerLookup, options: Omit<CodeNavSetupOptions, 'files' | 'childEnv'>): Promise<FoundServer | undefined> {
  const found = lookup.found!;
  if (!found.fromProject || options.trustAll) return found;
  const [{ TrustStore }, { decideTrust }, { serverTrust }] = await Promise.all([import('../trust/trust-store.js'), import('../trust/decide-trust.js'), import('./server-trust.js')]);
  const approved = await decideTrust(new TrustStore(options.workspace, options.env), serverTrust(found), options.ask);
  if (approved) return found;
  const fallback = found.spec.origin === 'built-in' ? lookUpServer(found.spec, options.workspace, options.env, true).found : undefined;
  if (fallback && !fallback.fromProject) return fallback;
  const why = approved === false ? 'you declined it for this workspace' : 'not approved for this workspace (a run in a terminal asks); pass --trust-project-mcp or set "trustProjectMcp": true in your user config to start project servers without asking';
  options.warn(`language server ${found.spec.name} (${found.executable}) not started: ${why}.`);
  return undefined;
}
