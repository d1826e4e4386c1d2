import type * as ChildProcess from 'node:child_process';
import { readFileSync } from 'node:fs';
import { requireOnFirstUse } from '../contracts/require-on-first-use.js';

export type BubblewrapStatus = { ok: true; path: string } | { ok: false; reason: string };

let cached: BubblewrapStatus | undefined;
// child_process (a few ms to load) is required at the first shell command, not at start-up.
const childProcess = requireOnFirstUse<typeof ChildProcess>('node:child_process');

/**
 * Whether bubblewrap can run here: it is installed and the kernel lets it create the namespaces (user, mount, PID and network)
 * (some containers and hardened kernels refuse unprivileged user namespaces). Probed once.
 */
export function detectBubblewrap(platform: NodeJS.Platform = process.platform): BubblewrapStatus {
  if (platform !== 'linux') return { ok: false, reason: `bubblewrap is Linux-only (this is ${platform}; the macOS sandbox-exec profile is designed, not built: see docs/checkpoints-and-sandbox.md)` };
  if (cached) return cached;
  const { spawnSync } = childProcess();
  const probe = spawnSync('bwrap', ['--unshare-pid', '--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', 'true'], { encoding: 'utf8', timeout: 10_000 });
  const error = probe.error as NodeJS.ErrnoException | undefined;
  if (error?.code === 'ENOENT') cached = { ok: false, reason: 'bubblewrap (bwrap) is not installed; on Debian or Ubuntu: apt-get install bubblewrap' };
  else if (error) cached = { ok: false, reason: `bwrap could not be run: ${error.message}` };
  else if (probe.status !== 0) cached = { ok: false, reason: `bwrap is installed but refused to start (${probe.stderr.trim() || `exit ${probe.status}`}); ${userNamespaceHint()}` };
  else cached = { ok: true, path: 'bwrap' };
  return cached;
}

type ReadSetting = (path: string) => string | undefined;

const readSetting: ReadSetting = (path) => {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
};

/** Why the kernel likely refuses bubblewrap its namespaces, from the settings that govern them, and the fix. */
export function userNamespaceHint(read: ReadSetting = readSetting): string {
  if (read('/proc/sys/kernel/unprivileged_userns_clone') === '0') return 'unprivileged user namespaces are off (kernel.unprivileged_userns_clone = 0; enable with sysctl -w kernel.unprivileged_userns_clone=1)';
  if (read('/proc/sys/user/max_user_namespaces') === '0') return 'user namespaces are disabled (user.max_user_namespaces = 0; raise it with sysctl -w user.max_user_namespaces=15000)';
  if (read('/proc/sys/kernel/apparmor_restrict_unprivileged_userns') === '1') return 'AppArmor restricts unprivileged user namespaces (kernel.apparmor_restrict_unprivileged_userns = 1; allow bwrap with an AppArmor profile, or set it to 0)';
  return 'the kernel or the container (seccomp, no CAP_SYS_ADMIN in a nested sandbox) probably forbids unprivileged user namespaces';
}
