import { parseHooks, type HookEvent, type HooksConfig } from '../hooks/hook-config.js';
import { Hooks } from '../hooks/hooks.js';
import { TrustStore } from '../mcp/trust-store.js';
import { projectConfigPath, readConfigFile, userConfigPath } from './config.js';
import type { Settings } from './settings.js';

export interface HooksSetupOptions {
  workspace: string;
  env: NodeJS.ProcessEnv;
  settings: Pick<Settings, 'hooks' | 'trustProjectMcp'>;
  warn(message: string): void;
  ask?: (question: string) => Promise<boolean>;
}

/**
 * The user's hooks, and the project config's once approved (as project MCP servers are: asked
 * once per workspace and configuration, or --trust-project-mcp). Undefined when there are none.
 */
export async function loadHooks(options: HooksSetupOptions): Promise<Hooks | undefined> {
  const { workspace, env, warn } = options;
  const user = parseHooks(options.settings.hooks, userConfigPath(env));
  const projectFile = projectConfigPath(workspace);
  const projectRaw = readConfigFile(projectFile).hooks;
  const project = parseHooks(projectRaw, projectFile);
  for (const warning of [...user.warnings, ...project.warnings]) warn(warning);
  let approved = options.settings.trustProjectMcp;
  const commands = Object.values(project.hooks).flatMap((groups) => groups.flatMap((group) => group.hooks.map((hook) => hook.command)));
  if (commands.length && !approved) {
    const store = new TrustStore(workspace, env);
    const key = `hooks:${projectFile}`;
    const known = store.decision(key, project.hooks);
    if (known !== undefined) approved = known;
    else if (options.ask) {
      approved = await options.ask(`Run the hooks of ${projectFile}? They run: ${commands.join(' ; ')}`);
      store.record(key, project.hooks, approved);
    } else {
      warn(`the hooks in ${projectFile} were not run: not approved for this workspace (a run in a terminal asks); pass --trust-project-mcp or set "trustProjectMcp": true in your user config to run them without asking.`);
    }
  }
  const merged: HooksConfig = { ...user.hooks };
  if (approved) for (const [event, groups] of Object.entries(project.hooks)) merged[event as HookEvent] = [...(merged[event as HookEvent] ?? []), ...groups];
  if (Object.keys(merged).length === 0) return undefined;
  return new Hooks(merged, { cwd: workspace, warn, env });
}
