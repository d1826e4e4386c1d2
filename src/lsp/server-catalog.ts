/** A language server the agent may start: how, for which files, with what options. */
export interface ServerSpec {
  name: string;
  /** What the server is for, as `vibe-agent lsp` lists it ("TypeScript/JavaScript"). */
  language: string;
  /** A program name (looked up in the workspace's node_modules/.bin, then PATH) or a path. */
  command: string;
  args: string[];
  /** File extensions it answers for, lower case with the dot. */
  extensions: string[];
  initializationOptions?: unknown;
  /** What `workspace/configuration` answers, by section (dotted names are looked up in it). */
  settings?: Record<string, unknown>;
  /** Per request, and for start-up; default 30 s. */
  timeoutMs?: number;
  /** Where the entry comes from: built in, the user's config, or the project's (which needs trust). */
  origin: 'built-in' | 'user' | 'project';
  /** The command that installs a built-in server, for when it is missing. */
  install?: string;
}

const SCRIPT = ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'];
const PYTHON = ['.py', '.pyi'];
const C_FAMILY = ['.c', '.h', '.cc', '.cpp', '.cxx', '.hpp', '.hh', '.hxx'];

/** Per language, the servers tried in order: the first one found answers. */
export const BUILT_IN_SERVERS: readonly ServerSpec[] = [
  { name: 'typescript-language-server', language: 'TypeScript/JavaScript', command: 'typescript-language-server', args: ['--stdio'], extensions: SCRIPT, origin: 'built-in', install: 'npm install -g typescript-language-server typescript',
    // A rename renames every use, not `new as old` at re-exports and shorthand properties; and no
    // syntax-only server, which answers from the open files alone while the project still loads.
    initializationOptions: { preferences: { providePrefixAndSuffixTextForRename: false }, tsserver: { useSyntaxServer: 'never' } } },
  { name: 'pyright', language: 'Python', command: 'pyright-langserver', args: ['--stdio'], extensions: PYTHON, origin: 'built-in', install: 'npm install -g pyright' },
  { name: 'basedpyright', language: 'Python', command: 'basedpyright-langserver', args: ['--stdio'], extensions: PYTHON, origin: 'built-in', install: 'pip install basedpyright' },
  { name: 'gopls', language: 'Go', command: 'gopls', args: [], extensions: ['.go'], origin: 'built-in', install: 'go install golang.org/x/tools/gopls@latest' },
  { name: 'rust-analyzer', language: 'Rust', command: 'rust-analyzer', args: [], extensions: ['.rs'], origin: 'built-in', install: 'rustup component add rust-analyzer' },
  { name: 'clangd', language: 'C/C++', command: 'clangd', args: [], extensions: C_FAMILY, origin: 'built-in', install: 'sudo apt-get install clangd (Debian, Ubuntu) or brew install llvm (macOS)' },
];

const LANGUAGE_IDS: Record<string, string> = {
  '.ts': 'typescript', '.mts': 'typescript', '.cts': 'typescript', '.tsx': 'typescriptreact',
  '.js': 'javascript', '.mjs': 'javascript', '.cjs': 'javascript', '.jsx': 'javascriptreact',
  '.py': 'python', '.pyi': 'python', '.go': 'go', '.rs': 'rust',
  '.c': 'c', '.h': 'c', '.cc': 'cpp', '.cpp': 'cpp', '.cxx': 'cpp', '.hpp': 'cpp', '.hh': 'cpp', '.hxx': 'cpp',
};

/**
 * How to get a server for a kind of file that has none: the first built-in one for it and the
 * command that installs it; undefined when none is built in for that extension.
 */
export function installHint(extension: string): string | undefined {
  const spec = BUILT_IN_SERVERS.find((server) => server.extensions.includes(extension.toLowerCase()));
  return spec?.install && `install ${spec.name} for ${spec.language} files: ${spec.install}`;
}

/** The LSP language id of a file, from its extension (the extension itself when unknown). */
export function languageId(extension: string): string {
  return LANGUAGE_IDS[extension] ?? extension.replace(/^\./, '');
}

/** A user's `lspServers` entry as the config file holds it. */
export interface ConfiguredServer {
  command: string;
  args?: string[];
  extensions: string[];
  initializationOptions?: unknown;
  settings?: Record<string, unknown>;
  /** Seconds each request may take. */
  timeout?: number;
}

/** Reads one `lspServers` entry; throws with what is wrong. */
export function configuredServer(name: string, value: unknown, origin: 'user' | 'project'): ServerSpec {
  const entry = value as Partial<ConfiguredServer> | null;
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) throw new Error(`lspServers.${name}: expected an object { command, args, extensions, initializationOptions, settings, timeout }`);
  if (typeof entry.command !== 'string' || entry.command === '') throw new Error(`lspServers.${name}.command: expected a program name or path`);
  if (entry.args !== undefined && (!Array.isArray(entry.args) || entry.args.some((arg) => typeof arg !== 'string'))) throw new Error(`lspServers.${name}.args: expected a list of text`);
  if (!Array.isArray(entry.extensions) || entry.extensions.length === 0 || entry.extensions.some((ext) => typeof ext !== 'string' || ext === '')) {
    throw new Error(`lspServers.${name}.extensions: expected a non-empty list such as [".vue"]`);
  }
  if (entry.timeout !== undefined && (typeof entry.timeout !== 'number' || !(entry.timeout > 0))) throw new Error(`lspServers.${name}.timeout: expected seconds above 0`);
  if (entry.settings !== undefined && (typeof entry.settings !== 'object' || entry.settings === null || Array.isArray(entry.settings))) throw new Error(`lspServers.${name}.settings: expected an object`);
  const extensions = entry.extensions.map((ext) => (ext.startsWith('.') ? ext : `.${ext}`).toLowerCase());
  return {
    name,
    language: `${name} (${extensions.join(' ')})`,
    command: entry.command,
    args: entry.args ?? [],
    extensions,
    ...(entry.initializationOptions !== undefined ? { initializationOptions: entry.initializationOptions } : {}),
    ...(entry.settings ? { settings: entry.settings } : {}),
    ...(entry.timeout !== undefined ? { timeoutMs: Math.round(entry.timeout * 1000) } : {}),
    origin,
  };
}
