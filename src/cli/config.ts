import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { PERMISSION_MODES } from '../permissions/permission-policy.js';
import { ConfigError } from '../providers/create-provider.js';
import { TOOL_GROUPS } from './select-tools.js';

export const configSchema = z
  .object({
    provider: z.string(),
    model: z.string(),
    baseUrl: z.string().url(),
    maxTurns: z.number().int().min(1),
    /** US dollars a run may spend (the --max-cost brake). */
    maxCost: z.number().positive(),
    temperature: z.number().min(0).max(2),
    tools: z.array(z.string()),
    permissionMode: z.enum(PERMISSION_MODES),
    permissions: z.object({ allow: z.array(z.string()).default([]), deny: z.array(z.string()).default([]) }).strict(),
    addDirs: z.array(z.string()),
    allowSecrets: z.boolean(),
    contextWindow: z.number().int().min(1024),
  })
  .partial()
  .strict();

export type FileConfig = z.infer<typeof configSchema>;

export function userConfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(homedir(), '.config');
  return join(base, 'vibe-agent', 'config.json');
}

export function projectConfigPath(workspace: string): string {
  return join(workspace, '.vibe-agent', 'config.json');
}

/** Settings a cloned repository must not grant itself; only the user (config or flags) can. */
const USER_ONLY = ['permissionMode', 'addDirs', 'allowSecrets'] as const;

/**
 * The user config overlaid with the project config. A missing file is fine; a broken one is an
 * error. The project file may tighten permissions (deny rules) but not loosen them.
 */
export function loadConfig(workspace: string, env: NodeJS.ProcessEnv = process.env, warn: (message: string) => void = () => {}): FileConfig {
  const user = readConfigFile(userConfigPath(env));
  const projectPath = projectConfigPath(workspace);
  const project = readConfigFile(projectPath);
  const ignored: string[] = USER_ONLY.filter((key) => project[key] !== undefined);
  if (project.permissions?.allow.length) ignored.push('permissions.allow');
  if (ignored.length) warn(`${projectPath}: ${ignored.join(', ')} ignored; a project file cannot loosen permissions. Put them in ${userConfigPath(env)} or pass flags.`);
  for (const key of USER_ONLY) delete project[key];
  for (const note of guardProject(user, project)) warn(`${projectPath}: ${note}`);
  const merged: FileConfig = { ...user, ...project };
  if (user.permissions || project.permissions) {
    merged.permissions = { allow: user.permissions?.allow ?? [], deny: [...(user.permissions?.deny ?? []), ...(project.permissions?.deny ?? [])] };
  }
  return merged;
}

function isLoopback(url: string): boolean {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

function expandTools(names: string[]): string[] {
  return names.flatMap((name) => TOOL_GROUPS[name] ?? [name]);
}

/**
 * What else a cloned repository could loosen, removed from `project` (the notes say what and why):
 * a `baseUrl` would send the user's API key (from the environment or user config) to any server,
 * so only a local one is taken; brakes and the tool set can be tightened, never widened.
 */
function guardProject(user: FileConfig, project: FileConfig): string[] {
  const notes: string[] = [];
  if (project.baseUrl !== undefined && !isLoopback(project.baseUrl)) {
    notes.push(`baseUrl ${project.baseUrl} ignored; a project file may only point at a server on this machine, since your API key would be sent to it. Put it in your user config or pass --base-url.`);
    delete project.baseUrl;
  }
  for (const key of ['maxCost', 'maxTurns'] as const) {
    const mine = user[key];
    const theirs = project[key];
    if (mine !== undefined && theirs !== undefined && theirs > mine) {
      notes.push(`${key} ${theirs} ignored; a project file may lower your limit (${mine}), not raise it.`);
      delete project[key];
    }
  }
  if (user.tools !== undefined && project.tools !== undefined) {
    const allowed = new Set(expandTools(user.tools));
    const extra = expandTools(project.tools).filter((name) => !allowed.has(name));
    if (extra.length) {
      notes.push(`tools ignored; it adds ${[...new Set(extra)].join(', ')} to the tools your user config chose.`);
      delete project.tools;
    }
  }
  return notes;
}

export function readConfigFile(path: string): FileConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`Cannot read config file ${path}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`Config file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ');
    throw new ConfigError(`Config file ${path} is invalid: ${issues}`);
  }
  return parsed.data;
}
