/**
 * Stops a process started with `detached: true` together with everything it spawned: SIGTERM to
 * its process group, then SIGKILL once `graceMs` has passed if any member is still alive.
 * Resolves when the group is gone, or just after the SIGKILL was sent.
 */
export async function killProcessTree(pid: number, graceMs = 2_000): Promise<void> {
  if (!signalGroup(pid, 'SIGTERM')) return;
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    await delay(Math.min(50, Math.max(1, deadline - Date.now())));
    if (!signalGroup(pid, 0)) return;
  }
  signalGroup(pid, 'SIGKILL');
}

/** True when the group still had a member to signal. */
function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    // ESRCH: the whole group has exited. EPERM cannot happen for our own children.
    return false;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
