import { homedir } from 'node:os';
import type { Tool } from '../../contracts/tool.js';
import { foreignHookDirs, foreignHookFiles } from '../../hooks/foreign-hook-files.js';
import type { Hooks } from '../../hooks/hooks.js';
import type { RegistryOptions, ToolRegistry } from '../../tools/registry.js';
import { anyPresent } from '../../workspace/any-present.js';
import { readProjectConfig } from '../settings/config.js';
import type { HooksSetupOptions } from './hooks-load.js';

export type { HooksSetupOptions } from './hooks-load.js';

/**
 * The hooks in effect (see hooks-load.ts for whose run); undefined when there are none. Their
 * code (the schema, the runner's child processes) loads only when some file or setting has hooks.
 */
export async function loadHooks(options: HooksSetupOptions): Promise<Hooks | undefined> {
  const { workspace, env } = options;
  const project = options.project ?? (await readProjectConfig(workspace));
  const dirs = foreignHookDirs(workspace, env, env.HOME || homedir());
  const foreign = [foreignHookFiles(dirs.user, 'user'), foreignHookFiles(dirs.project, 'project')].flatMap((files) => Object.values(files));
  const given = (hooks: Record<string, unknown> | undefined) => hooks !== undefined && Object.keys(hooks).length > 0;
  if (!given(options.settings.hooks) && !given(project.config.hooks) && !anyPresent(foreign)) return undefined;
  const { loadConfiguredHooks } = await import('./hooks-load.js');
  return loadConfiguredHooks(options, project);
}

/** The run's tools behind the hooks (PreToolUse, PostToolUse); loaded only when there are hooks. */
export async function hookedRegistry(hooks: Hooks, tools: Tool[], options: RegistryOptions): Promise<ToolRegistry> {
  const { HookedRegistry } = await import('../../hooks/hooked-registry.js');
  return new HookedRegistry(hooks, tools, options);
}
