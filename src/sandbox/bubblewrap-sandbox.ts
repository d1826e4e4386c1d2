import type { ShellSandbox } from '../tools/coding/shell/shell-sandbox.js';
import type { HiddenPaths } from './hidden-secrets.js';

export interface BubblewrapPolicy {
  /** Writable: the workspace and the --add-dir folders. */
  writable: string[];
  network: boolean;
  hidden: HiddenPaths;
  bwrap?: string;
}

/**
 * The bwrap arguments: the whole file system read-only, a private /tmp, the writable folders bound
 * back read-write, secrets masked (an empty folder, /dev/null for a file), no network unless
 * allowed. A PID namespace with its own /proc: no process outside it can be seen, signalled or
 * reached through /proc/<pid>/root, environ or mem (the CLI's among them). The namespace ends when
 * its first process does (the shell's keeper, see KEEPER) and with bwrap (--die-with-parent), which
 * our process-group kill reaches. The spawn is detached (setsid), so no terminal to inject into.
 */
export function bubblewrapArgs(policy: BubblewrapPolicy, cwd: string): string[] {
  const args = ['--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  for (const dir of policy.writable) args.push('--bind', dir, dir);
  for (const dir of policy.hidden.dirs) args.push('--tmpfs', dir);
  for (const file of policy.hidden.files) args.push('--ro-bind', '/dev/null', file);
  if (!policy.network) args.push('--unshare-net');
  args.push('--die-with-parent', '--chdir', cwd, '--');
  return args;
}

/**
 * Runs the shell (without fd 3), says its exit status on fd 3, then keeps the PID namespace alive
 * while anything else runs in it (a `server &` the shell left): the namespace ends when its first
 * process does. Polls /proc every 0.2 s, with the shell's own output pipes closed.
 */
const KEEPER = '"$@" 3>&-; s=$?; echo "$s" >&3; exec 3>&- >/dev/null 2>&1; while :; do o=; for p in /proc/[0-9]*; do case ${p#/proc/} in 1|$$) ;; *) o=1;; esac; done; [ -n "$o" ] || exit "$s"; sleep 0.2; done';

const READ_ONLY = /read-only file system|EROFS/i;
const NO_NETWORK = /could not resolve host|temporary failure in name resolution|network is unreachable|connection refused|name or service not known|getaddrinfo|ENETUNREACH|EAI_AGAIN/i;

export function createBubblewrapSandbox(policy: BubblewrapPolicy): ShellSandbox {
  const where = `${policy.writable.join(', ')} and a private /tmp`;
  return {
    name: 'bubblewrap',
    wrap: (argv, cwd) => [policy.bwrap ?? 'bwrap', ...bubblewrapArgs(policy, cwd), ...argv],
    wrapShell: (argv, cwd) => ({ argv: [policy.bwrap ?? 'bwrap', ...bubblewrapArgs(policy, cwd), '/bin/sh', '-c', KEEPER, 'keeper', ...argv], exitOnFd3: true }),
    explainFailure: (output) => {
      if (READ_ONLY.test(output)) {
        return `[sandbox: this command may have failed because of the OS sandbox: only ${where} are writable. If it must write elsewhere, ask the user to allow it (--add-dir DIR, or --sandbox off).]`;
      }
      if (!policy.network && NO_NETWORK.test(output)) {
        return '[sandbox: this command may have failed because the OS sandbox has no network. If it needs the network, ask the user to allow it (--sandbox-network, or --sandbox off).]';
      }
      return undefined;
    },
  };
}
