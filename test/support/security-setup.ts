import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

export interface SecurityDirs {
  root: string;
  /** The agent's workspace. */
  workspace: string;
  /** A directory next to it that nothing may reach. */
  outside: string;
  /** HOME and XDG_CONFIG_HOME inside `root`. */
  env: { HOME: string; XDG_CONFIG_HOME: string };
}

/** Call at the top of a test file: returns a maker of fresh temp layouts, removed after each test. */
export function tempLayouts(): () => SecurityDirs {
  const temps: string[] = [];
  afterEach(() => {
    for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
  });
  return () => {
    const root = mkdtempSync(join(tmpdir(), 'vibe-sec-'));
    temps.push(root);
    const workspace = join(root, 'ws');
    const outside = join(root, 'outside');
    mkdirSync(workspace);
    mkdirSync(outside);
    return { root, workspace, outside, env: { HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'config') } };
  };
}
