import { homedir } from 'node:os';
import { isAbsolute, relative, resolve } from 'node:path';
import { isSecretPath } from '../workspace/secret-files.js';
import { commandForms } from './command-forms.js';
import { commandSegments } from './command-segments.js';
import { realpathAllowingMissing } from './permission-rule.js';

/**
 * The built-in hard-deny list of the auto mode: calls refused with no model asked and no rule able
 * to let them through in that mode. Each check looks at every segment of a command (no cap on how
 * many), in every spelling a deny rule sees (src/permissions/command-forms.ts). Like a deny rule
 * on a shell it is best-effort against a model that is trying; the reviewer sees what it misses.
 */

/** Shell start-up files: whatever is written there runs in the user's next shell. */
const STARTUP_FILES = ['.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.kshrc', '.cshrc', '.tcshrc', '.inputrc', '.config/fish/config.fish', '.xinitrc', '.xprofile'];
/** Programs that send data out. */
const SENDERS = /\b(curl|wget|nc|ncat|netcat|socat|scp|sftp|rsync|ftp|telnet|ssh)\b/;
const SHELL_OR_INTERPRETER = /^(sudo\s+|env\s+)?(\S*\/)?(sh|bash|zsh|dash|ksh|fish|python[0-9.]*|perl|ruby|node|php)\b/;

/** Why the command is hard-denied, or undefined. */
export function hardDenyCommand(command: string, workspace: string): string | undefined {
  const segments = commandSegments(command);
  if (/\b(curl|wget|fetch)\b[^|]*\|/.test(command) && pipesIntoShell(command)) return 'it pipes a download into a shell (curl … | sh)';
  if (/(^|[\s;&|(])(sh|bash|zsh|dash)\s+(-c\s+["']?\$\(|<\s*\()\s*(curl|wget)\b/.test(command)) return 'it runs a download as a script';
  if (/\$\(\s*(curl|wget)\b/.test(command) && /\b(eval|sh|bash|zsh)\b/.test(command)) return 'it runs a download as a script';
  for (const segment of segments) {
    for (const form of commandForms(segment)) {
      const reason = hardDenyForm(form, workspace);
      if (reason) return reason;
    }
  }
  if (SENDERS.test(command) && mentionsSecret(command)) return 'it sends a credentials file out of the machine';
  if (/\b(env|printenv|set)\b[^|;&]*\|\s*(\S*\/)?(curl|wget|nc|ncat)\b/.test(command)) return 'it sends the environment out of the machine';
  const written = redirectTargets(command);
  for (const target of written) {
    const why = sensitiveWriteTarget(target, workspace);
    if (why) return why;
  }
  if (/(^|[^\w-])--no-sandbox\b|VIBE_SANDBOX=off|--sandbox[= ]off|"sandbox"\s*:\s*"off"/.test(command)) return 'it turns the sandbox off';
  if (/:\(\)\s*\{\s*:\|:&\s*\};:/.test(command.replace(/\s+/g, ''))) return 'it is a fork bomb';
  return undefined;
}

function pipesIntoShell(command: string): boolean {
  const parts = command.split('|').slice(1);
  return parts.some((part) => SHELL_OR_INTERPRETER.test(part.trim()));
}

function hardDenyForm(form: string, workspace: string): string | undefined {
  const words = form.split(/\s+/).filter((word) => word !== '');
  const [program, ...args] = words;
  if (program === undefined) return undefined;
  if (program === 'git' && args.includes('push')) {
    if (args.some((arg) => arg === '-f' || arg === '--force' || arg.startsWith('--force-with-lease') || arg === '--mirror' || arg === '--delete' || /^\+\S/.test(arg) || (/^-[a-zA-Z]+$/.test(arg) && arg.includes('f')))) {
      return 'it force-pushes (rewrites or deletes history on a remote)';
    }
  }
  if (program === 'git' && args[0] === 'config' && args.some((arg) => /^core\.(hookspath|fsmonitor|sshcommand|pager|editor)$/i.test(arg))) return 'it changes git settings that run programs';
  if (program === 'rm' && recursiveForce(args)) {
    const targets = args.filter((arg) => !arg.startsWith('-'));
    const outside = targets.find((target) => !insideWorkspace(target, workspace));
    if (outside !== undefined) return `it deletes recursively outside the workspace (${outside})`;
    if (targets.some((target) => realpathAllowingMissing(resolve(workspace, expandHome(target))) === realpathAllowingMissing(workspace))) return 'it deletes the whole workspace';
  }
  if (/^mkfs(\.|$)/.test(program) || (program === 'dd' && args.some((arg) => /^of=\/dev\//.test(arg)))) return 'it writes a disk device';
  if (program === 'chmod' && args.some((arg) => arg === '-R' || arg === '--recursive') && args.some((arg) => arg === '/' || arg === '~')) return 'it changes permissions of the whole system';
  if (program === 'setenforce' && args[0] === '0') return 'it turns a security sandbox off';
  if ((program === 'tee' || program === 'cp' || program === 'mv' || program === 'ln' || program === 'install' || program === 'truncate') && args.length > 0) {
    const targets = program === 'tee' ? args.filter((arg) => !arg.startsWith('-')) : [args[args.length - 1]!];
    for (const target of targets) {
      const why = sensitiveWriteTarget(target, workspace);
      if (why) return why;
    }
  }
  if (program === 'sed' && args.some((arg) => arg.startsWith('-i'))) {
    const why = args.map((arg) => sensitiveWriteTarget(arg, workspace)).find(Boolean);
    if (why) return why;
  }
  return undefined;
}

function recursiveForce(args: string[]): boolean {
  const flags = args.filter((arg) => arg.startsWith('-'));
  const short = flags.filter((flag) => !flag.startsWith('--')).join('');
  const recursive = /[rR]/.test(short) || flags.includes('--recursive');
  const force = short.includes('f') || flags.includes('--force');
  return recursive && force;
}

function expandHome(path: string): string {
  if (path === '~' || path === '$HOME' || path === '${HOME}') return homedir();
  return path.replace(/^(~|\$HOME|\$\{HOME\})\//, `${homedir()}/`);
}

function insideWorkspace(path: string, workspace: string): boolean {
  if (/^[~$]/.test(path) && !/^(~|\$HOME|\$\{HOME\})(\/|$)/.test(path)) return false;
  if (path.includes('*') && path.replace(/\*.*$/, '') === '') return true;
  const absolute = resolve(workspace, expandHome(path));
  const rel = relative(realpathAllowingMissing(workspace), realpathAllowingMissing(absolute));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** Targets of `>` and `>>` redirections (not `2>&1`). */
function redirectTargets(command: string): string[] {
  return [...command.matchAll(/(?<![0-9&])>{1,2}\|?\s*(["']?)([^\s"';&|<>]+)\1/g)].map((match) => match[2]!);
}

/** Why writing this path is hard-denied: a shell start-up file or a credentials store. */
export function sensitiveWriteTarget(path: string, workspace: string): string | undefined {
  const home = homedir();
  const absolute = realpathAllowingMissing(resolve(workspace, expandHome(path)));
  const rel = relative(realpathAllowingMissing(home), absolute).split('\\').join('/');
  const inHome = !rel.startsWith('..') && !isAbsolute(rel);
  if (inHome && STARTUP_FILES.includes(rel)) return `it writes a shell start-up file (${path})`;
  if (inHome && /^\.ssh\//.test(rel)) return `it writes into ~/.ssh (${path})`;
  const lower = absolute.toLowerCase();
  if (/(^|\/)(\.git-credentials|\.netrc|\.pgpass|credentials|authorized_keys)$/.test(lower) || /\/\.aws\/|\/\.docker\/config\.json$|\/\.kube\/config$|\/\.npmrc$|\/\.pypirc$/.test(lower)) {
    return `it writes a credentials file (${path})`;
  }
  if (/^\/etc\/(sudoers|passwd|shadow|profile|bash\.bashrc|environment|crontab|cron\.)/.test(absolute) || /\/cron\.d\//.test(absolute)) return `it writes a system file that grants access or runs programs (${path})`;
  return undefined;
}

function mentionsSecret(command: string): boolean {
  return command.split(/[\s'"=@<>|;&()]+/).some((word) => word !== '' && (isSecretPath(word) || /(^|\/)\.(aws|ssh|gnupg)(\/|$)/.test(word) || /(^|\/)\.git-credentials$/.test(word)));
}
