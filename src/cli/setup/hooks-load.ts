import { parseHooks, type HookEvent, type HooksConfig } from '../../hooks/hook-config.js';
import { Hooks } from '../../hooks/hooks.js';
import { foreignHookDirs } from '../../hooks/foreign-hook-files.js';
import { foreignHookSources, type HookSource } from '../../hooks/foreign-hooks.js';
import { homedir } from 'node:os';
import { decideTrust } from '../../trust/decide-trust.js';
import { hooksQuestion } from '../../trust/hooks-question.js';
import type { AskTrust } from '../../trust/trust-question.js';
import { TrustStore } from '../../trust/trust-store.js';
import { userConfigPath, type ProjectConfig } from '../settings/config.js';
import type { Settings } from '../settings/settings.js';
import { userFileRoots } from '../../workspace/own-file-roots.js';

export interface HooksSetupOptions {
  workspace: string;
  env: NodeJS.ProcessEnv;
  settings: Pick<Settings, 'hooks' | 'trustProjectMcp'> & Partial<Pick<Settings, 'permissionMode'>>;
  warn(message: string): void;
  ask?: AskTrust;
  /** The project config file as the run already read it; read again when absent. */
  project?: ProjectConfig;
}

/**
 * The user's hooks (our config, and Claude Code's, Gemini CLI's and Codex's files in the home), and
 * the project's (.vibe-agent/config.json, .claude/settings.json and settings.local.json,
 * .gemini/settings.json, .codex/) once approved as project MCP
 * servers are: asked once per file and content, or --trust-project-mcp. Undefined when there are none.
 */
export async function loadConfiguredHooks(options: HooksSetupOptions, projectConfig: ProjectConfig): Promise<Hooks | undefined> {
  const { workspace, env, warn } = options;
  const home = env.HOME || homedir();
  const user = parseHooks(options.settings.hooks, userConfigPath(env));
  const projectFile = projectConfig.file;
  const project = parseHooks(projectConfig.config.hooks, projectFile);
  for (const warning of [...user.warnings, ...project.warnings]) warn(warning);
  // Read unchanged: Claude Code's, Gemini CLI's and Codex's hooks, the user's own and the repository's.
  const dirs = foreignHookDirs(workspace, env, home);
  const userSources: HookSource[] = [{ file: userConfigPath(env), format: 'vibe-agent', hooks: user.hooks }, ...foreignHookSources(dirs.user, 'user', userFileRoots(env), warn)];
  const projectSources: HookSource[] = [{ file: projectFile, format: 'vibe-agent', hooks: project.hooks }, ...foreignHookSources(dirs.project, 'project', [workspace], warn)];
  const merged: HooksConfig = {};
  const add = (hooks: HooksConfig) => {
    for (const [event, groups] of Object.entries(hooks)) merged[event as HookEvent] = [...(merged[event as HookEvent] ?? []), ...groups];
  };
  for (const source of userSources) add(source.hooks);
  for (const source of projectSources) if (await projectApproved(source, options)) add(source.hooks);
  if (Object.keys(merged).length === 0) return undefined;
  return new Hooks(merged, { cwd: workspace, warn, env, ...(options.settings.permissionMode ? { permissionMode: options.settings.permissionMode } : {}) });
}

/** A repository's hooks run as you: asked once per file and content (see decideTrust), remembered per workspace. */
async function projectApproved(source: HookSource, options: HooksSetupOptions): Promise<boolean> {
  const hasCommands = Object.values(source.hooks).some((groups) => groups.some((group) => group.hooks.length > 0));
  if (!hasCommands) return false;
  if (options.settings.trustProjectMcp) return true;
  const store = new TrustStore(options.workspace, options.env);
  const approved = await decideTrust(store, { key: `hooks:${source.file}`, config: source.hooks, question: hooksQuestion(source) }, options.ask);
  if (approved !== undefined) return approved;
  options.warn(`the hooks in ${source.file} were not run: not approved for this workspace (a run in a terminal asks); pass --trust-project-mcp or set "trustProjectMcp": true in your user config to run them without asking.`);
  return false;
}
