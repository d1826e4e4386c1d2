import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/cli/settings/config.js';
import type { SecurityDirs } from './security-setup.js';

/** Writes a user config (unless undefined) and a project config into fresh dirs, then loads them as the CLI does. */
export async function loadConfigLayers(dirs: SecurityDirs, user: object | undefined, project: object) {
  const { workspace, env } = dirs;
  if (user) {
    mkdirSync(join(env.XDG_CONFIG_HOME, 'vibe-agent'), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME, 'vibe-agent', 'config.json'), JSON.stringify(user));
  }
  mkdirSync(join(workspace, '.vibe-agent'));
  writeFileSync(join(workspace, '.vibe-agent', 'config.json'), JSON.stringify(project));
  const warnings: string[] = [];
  const config = await loadConfig(workspace, env, (message) => warnings.push(message));
  return { config, warnings: warnings.join('\n') };
}
