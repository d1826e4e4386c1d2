import { readdirSync, readFileSync } from 'node:fs';

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
    if (!groupAlive(pid)) return;
  }
  signalGroup(pid, 'SIGKILL');
}

/** True when the group still had a member to signal. */
export function signalGroup(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    // ESRCH: the whole group has exited. EPERM cannot happen for our own children.
    return false;
  }
}

/**
 * A group whose members have all exited may still "exist" as zombies no one reaps (orphans in a
 * container whose PID 1 never calls wait), so on Linux only living members count.
 */
export function groupAlive(pgid: number): boolean {
  if (!signalGroup(pgid, 0)) return false;
  if (process.platform !== 'linux') return true;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return true;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      continue;
    }
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses, so split after the last ")".
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (Number(fields[2]) === pgid && fields[0] !== 'Z' && fields[0] !== 'X') return true;
  }
  return false;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
