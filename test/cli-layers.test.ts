import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs script, run by CI as it is
import { importGraph, moduleGraph } from '../scripts/check-layers.mjs';

// src/cli's folders, lowest first: each may import only the folders before it (and display/ and tui/, beside the layers).
const LAYERS = ['cli/settings', 'cli/args', 'cli/setup', 'cli/prompt', 'cli/commands', 'cli'];
const layerOf = (folder: string): number => (folder.startsWith('cli/commands/') ? LAYERS.indexOf('cli/commands') : LAYERS.indexOf(folder));

describe('the layers of src/cli', () => {
  it('no folder imports a folder above it (a command never imports the parser or the dispatcher)', () => {
    const modules = (moduleGraph as (files: unknown) => Map<string, Set<string>>)((importGraph as () => unknown)());
    const upward: string[] = [];
    for (const [from, targets] of modules) {
      if (layerOf(from) < 0) continue;
      for (const to of targets) if (layerOf(to) >= 0 && layerOf(to) > layerOf(from)) upward.push(`${from} -> ${to}`);
    }
    expect([...modules.keys()].filter((folder) => folder.startsWith('cli/commands/')).length).toBeGreaterThanOrEqual(14);
    expect(upward).toEqual([]);
  });
});
