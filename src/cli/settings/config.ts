import { isWithin, readOwnTextAsync, realRoots, type ReadRule, type RefusedFileError } from '../../workspace/read-own-file.js';
import { userFileRoots } from '../../workspace/own-file-roots.js';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ConfigError } from '../../providers/create-provider.js';
import { PRESET_ALIASES, PRESETS } from '../../providers/presets.js';
import { CONFIG_KEYS, settingRow, type ConfigKey, type FileConfig, type ProjectRule } from './settings.js';
import { expandToolGroups } from './tool-names.js';
import { agentEnvironment } from '../../secrets/held-secrets.js';
import { ConfigTextError, parseJsonText } from '../../contracts/config-text.js';
import { configProblems } from './config-problems.js';

export type { FileConfig } from './settings.js';

export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'vibe-agent', 'config.json');
}

export function projectConfigPath(workspace: string): string {
  return join(workspace, '.vibe-agent', 'config.json');
}

/** The workspace's config file and what it holds (empty when there is none). */
export interface ProjectConfig {
  file: string;
  config: FileConfig;
}

export async function readProjectConfig(workspace: string, warn: (message: string) => void = () => {}): Promise<ProjectConfig> {
  const file = projectConfigPath(workspace);
  return { file, config: await readConfigFile(file, { within: [workspace] }, warn) };
}

const keysWith = (rule: ProjectRule): ConfigKey[] => CONFIG_KEYS.filter((key) => settingRow(key).project === rule);

/**
 * The user config overlaid with the project config. A missing file is fine; a broken one is an
 * error. The project file may tighten what the user chose (the table's project rules), never
 * loosen it. Directories in `addDirs` are relative to the workspace.
 */
export async function loadConfig(
  workspace: string,
  env: NodeJS.ProcessEnv = agentEnvironment(),
  warn: (message: string) => void = () => {},
  /** The project file as already read (a run reads it once: hooks and MCP servers take theirs from it too). */
  read?: ProjectConfig,
): Promise<FileConfig> {
  const user = await readConfigFile(userConfigPath(env), { within: userFileRoots(env), user: true }, warn);
  const projectPath = projectConfigPath(workspace);
  // A copy: the keys a project file may not set are removed from it below.
  const project = { ...(read ?? (await readProjectConfig(workspace, warn))).config };
  const userOnly = keysWith('user-only');
  const ignored: string[] = userOnly.filter((key) => project[key] !== undefined);
  if (project.permissions?.allow.length) ignored.push('permissions.allow');
  if (ignored.length) warn(`${projectPath}: ${ignored.join(', ')} ignored; a project file cannot loosen permissions. Put them in ${userConfigPath(env)} or pass flags.`);
  for (const key of userOnly) delete project[key];
  // Taken from the project file by their own module, once the user approves them (src/mcp).
  for (const key of keysWith('after-approval')) delete project[key];
  for (const note of guardProject(user, project, workspace)) warn(`${projectPath}: ${note}`);
  const merged: FileConfig = { ...user, ...project };
  if (user.permissions || project.permissions) {
    merged.permissions = { allow: user.permissions?.allow ?? [], deny: [...(user.permissions?.deny ?? []), ...(project.permissions?.deny ?? [])] };
  }
  if (merged.addDirs) merged.addDirs = merged.addDirs.map((dir) => resolve(workspace, dir));
  if (merged.knowledge) merged.knowledge = merged.knowledge.map((source) => ({ ...source, path: resolve(workspace, source.path) }));
  return merged;
}

/** A URL on this machine, or a provider preset that is (ollama, vllm, lmstudio): where a key may go unasked. */
export function pointsAtThisMachine(value: string): boolean {
  const preset = PRESETS[PRESET_ALIASES[value] ?? value];
  if (preset) return preset.local === true;
  try {
    const host = new URL(value).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
  } catch {
    return false;
  }
}

/**
 * What else a cloned repository could loosen, removed from `project` (the notes say what and why):
 * a `baseUrl` or `provider` would send the user's API key (`--api-key`, the environment) to another
 * server or vendor, so only a local one is taken; brakes (bounded by the user's value, else the
 * default) and the tool set can be tightened, never widened.
 */
function guardProject(user: FileConfig, project: FileConfig, workspace: string): string[] {
  const notes: string[] = [];
  for (const key of keysWith('local-only')) {
    const where = project[key];
    if (typeof where === 'string' && where !== user[key] && !pointsAtThisMachine(where)) {
      notes.push(`${key} ${where} ignored; a project file may only point at a server on this machine, since your API key would be sent to it. Put it in your user config or pass --${settingRow(key).flag}.`);
      delete project[key];
    }
  }
  // Where the folder really is: a link inside the workspace may lead anywhere.
  const [realWorkspace] = realRoots([workspace]);
  const outside = (project.knowledge ?? []).filter((source) => !isWithin(realWorkspace!, realRoots([resolve(workspace, source.path)])[0]!));
  if (outside.length) {
    notes.push(`knowledge ${outside.map((source) => source.path).join(', ')} ignored; a project file may only index folders inside the workspace.`);
    project.knowledge = project.knowledge!.filter((source) => !outside.includes(source));
  }
  for (const key of keysWith('may-lower')) {
    const mine = user[key] ?? settingRow(key).default;
    const theirs = project[key];
    if (typeof mine === 'number' && typeof theirs === 'number' && theirs > mine) {
      notes.push(`${key} ${theirs} ignored; a project file may lower your limit (${mine}${user[key] === undefined ? ', the default' : ''}), not raise it.`);
      delete project[key];
    }
  }
  for (const key of keysWith('may-narrow')) {
    const mine = user[key];
    const theirs = project[key];
    if (!Array.isArray(mine) || !Array.isArray(theirs)) continue;
    const allowed = new Set(expandToolGroups(mine as string[]));
    const extra = expandToolGroups(theirs as string[]).filter((name) => !allowed.has(name));
    if (extra.length) {
      notes.push(`${key} ignored; it adds ${[...new Set(extra)].join(', ')} to the tools your user config chose.`);
      delete project[key];
    }
  }
  return notes;
}

/** Far above any real config; a bigger file is refused rather than parsed. */
const MAX_CONFIG_BYTES = 1024 * 1024;

/** Where a config file may really be, and whether it is the user's own. */
export interface ConfigPlace {
  within: ReadRule['within'];
  /** The user's config carries their deny rules: one that cannot be read stops the run rather than being ignored. */
  user?: boolean;
}

/**
 * A project config that is a FIFO, a device, huge, or a link leading outside the workspace is
 * skipped with a warning: a cloned repository must not hang start-up. The user's config in such a
 * shape is an error naming it. The schema (zod) is loaded only when there is a file to check: most
 * one-shot runs have none.
 */
export async function readConfigFile(path: string, place: ConfigPlace, warn: (message: string) => void = () => {}): Promise<FileConfig> {
  let text: string;
  try {
    text = await readOwnTextAsync(path, { within: place.within, maxBytes: MAX_CONFIG_BYTES });
  } catch (error) {
    const code = (error as RefusedFileError).code;
    if (code === 'ENOENT') return {};
    if (!place.user && (code === 'ENOTREG' || code === 'EFBIG' || code === 'EOUTSIDE' || code === 'EDANGLING')) {
      warn(`config ${(error as Error).message.replace(/\.$/, '')}, so it is ignored.`);
      return {};
    }
    throw new ConfigError(`Cannot read config file ${path}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = parseJsonText(text);
  } catch (error) {
    if (!(error instanceof ConfigTextError)) throw error;
    throw new ConfigError(`Config file ${path} is not valid JSON at line ${error.line}, column ${error.column}: ${error.reason}\n${error.excerpt}`);
  }
  const { configSchema } = await import('./config-schema.js');
  const schema = configSchema();
  const parsed = schema.safeParse(raw);
  const problems = configProblems(text, raw, schema, parsed.success ? [] : parsed.error.issues, place.user === true);
  if (problems.length) throw new ConfigError(`Config file ${path} is invalid:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
  return parsed.data as FileConfig;
}
