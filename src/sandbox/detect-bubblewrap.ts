import { spawnSync } from 'node:child_process';

export type BubblewrapStatus = { ok: true; path: string } | { ok: false; reason: string };

let cached: BubblewrapStatus | undefined;

/**
 * Whether bubblewrap can run here: it is installed and the kernel lets it create the namespaces
 * (some containers and hardened kernels refuse unprivileged user namespaces). Probed once.
 */
export function detectBubblewrap(platform: NodeJS.Platform = process.platform): BubblewrapStatus {
  if (platform !== 'linux') return { ok: false, reason: `bubblewrap is Linux-only (this is ${platform}; the macOS sandbox-exec profile is designed, not built: see docs/checkpoints-and-sandbox.md)` };
  if (cached) return cached;
  const probe = spawnSync('bwrap', ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--unshare-net', 'true'], { encoding: 'utf8', timeout: 10_000 });
  const error = probe.error as NodeJS.ErrnoException | undefined;
  if (error?.code === 'ENOENT') cached = { ok: false, reason: 'bubblewrap (bwrap) is not installed; on Debian or Ubuntu: apt-get install bubblewrap' };
  else if (error) cached = { ok: false, reason: `bwrap could not be run: ${error.message}` };
  else if (probe.status !== 0) cached = { ok: false, reason: `bwrap is installed but refused to start (${probe.stderr.trim() || `exit ${probe.status}`}); the kernel probably forbids unprivileged user namespaces` };
  else cached = { ok: true, path: 'bwrap' };
  return cached;
}
