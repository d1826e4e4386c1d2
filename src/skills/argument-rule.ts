import { posix } from 'node:path';
import { picomatchPackage } from '../workspace/picomatch-package.js';

/**
 * An `allowed-tools` entry with an argument pattern, as Claude Code writes them: `bash(git diff:*)`
 * (a command and its arguments), `read_file(src/**)` (a path glob, workspace-relative), `fetch_url(domain:example.com)`.
 * Returns why `args` falls outside `pattern`, or undefined when it is inside.
 */
export function argumentRefusal(tool: string, pattern: string, args: unknown): string | undefined {
  const record = (args ?? {}) as Record<string, unknown>;
  if (tool === 'bash') return commandRefusal(pattern, typeof record.command === 'string' ? record.command : '');
  if (PATH_TOOLS.has(tool)) return pathRefusal(pattern, typeof record.path === 'string' ? record.path : '.');
  if (tool === 'fetch_url') return urlRefusal(pattern, typeof record.url === 'string' ? record.url : '');
  return `${tool}(${pattern}): argument patterns are understood for bash, file tools and fetch_url only, so ${tool} is refused`;
}

const PATH_TOOLS = new Set(['read_file', 'write_file', 'edit_file', 'list_files', 'grep']);

// What lets one shell command run another: a prefix rule must not let `git diff; rm -rf ~` through.
const SHELL_CHAINING = /[;&|`\n\r<>]|\$\(/;

function commandRefusal(pattern: string, command: string): string | undefined {
  const trimmed = command.trim();
  const prefix = pattern.endsWith(':*') ? pattern.slice(0, -2).trim() : undefined;
  if (prefix === undefined && !pattern.includes('*')) return trimmed === pattern.trim() ? undefined : `the command must be exactly "${pattern}"`;
  if (SHELL_CHAINING.test(trimmed)) return `a command limited to "${pattern}" may not chain, pipe or redirect (;, &&, |, >, $(…), backticks)`;
  if (prefix !== undefined) return trimmed === prefix || trimmed.startsWith(`${prefix} `) ? undefined : `the command must start with "${prefix}"`;
  const regex = new RegExp(`^${pattern.trim().split('*').map(escapeRegex).join('.*')}$`, 's');
  return regex.test(trimmed) ? undefined : `the command must match "${pattern}"`;
}

function pathRefusal(pattern: string, path: string): string | undefined {
  const normal = posix.normalize(path.replaceAll('\\', '/')).replace(/^\.\/(?=.)/, '').replace(/\/$/, '') || '.';
  if (normal === '..' || normal.startsWith('../')) return `the path must stay inside "${pattern}"`;
  const glob = pattern.replace(/^\.\//, '');
  return picomatchPackage().isMatch(normal, glob, { dot: true }) ? undefined : `the path must match "${pattern}" (got "${path}")`;
}

function urlRefusal(pattern: string, url: string): string | undefined {
  const domain = pattern.startsWith('domain:') ? pattern.slice('domain:'.length).trim().toLowerCase() : undefined;
  if (domain === undefined) return `fetch_url(${pattern}): only domain:HOST patterns are understood`;
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase();
  } catch {
    return 'not a valid URL';
  }
  return host === domain || host.endsWith(`.${domain}`) ? undefined : `the URL's host must be ${domain}`;
}

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
