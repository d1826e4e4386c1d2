import type { ShellSandbox } from '../tools/coding/shell/shell-sandbox.js';
import { createBubblewrapSandbox } from './bubblewrap-sandbox.js';
import { detectBubblewrap, type BubblewrapStatus } from './detect-bubblewrap.js';
import { findSecretPaths } from './hidden-secrets.js';

export interface SandboxSetup {
  mode: 'auto' | 'on' | 'off';
  workspace: string;
  addDirs: string[];
  network: boolean;
  home?: string;
  /** Told once when the sandbox is wanted but cannot run. */
  warn(text: string): void;
  detect?: () => BubblewrapStatus;
}

let warned = false;

/** The shell's sandbox for a run, or undefined (off, or unavailable under auto after a one-time warning); throws under `on` when it cannot run. */
export function setUpShellSandbox(setup: SandboxSetup): ShellSandbox | undefined {
  if (setup.mode === 'off') return undefined;
  const status = (setup.detect ?? detectBubblewrap)();
  if (!status.ok) {
    if (setup.mode === 'on') throw new Error(`--sandbox on: the shell sandbox cannot run here: ${status.reason}.`);
    if (!warned) setup.warn(`shell commands run WITHOUT a sandbox: ${status.reason}. Pass --sandbox off to accept that and silence this warning.`);
    warned = true;
    return undefined;
  }
  const roots = [setup.workspace, ...setup.addDirs];
  return createBubblewrapSandbox({ writable: roots, network: setup.network, hidden: findSecretPaths(roots, setup.home), bwrap: status.path });
}
