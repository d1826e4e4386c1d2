import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../providers/create-provider.js';

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

/** The user config overlaid with the project config. A missing file is fine; a broken one is an error. */
export function loadConfig(workspace: string, env: NodeJS.ProcessEnv = process.env): FileConfig {
  return { ...readConfigFile(userConfigPath(env)), ...readConfigFile(projectConfigPath(workspace)) };
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
