import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorText } from '../contracts/error-text.js';
import { BUILTIN_AGENTS, type AgentDefinition } from './agent-definition.js';
import { parseAgentFile } from './parse-agent-file.js';

export interface AgentDirectories {
  workspace: string;
  /** The user's config directory (…/vibe-agent), whose agents/ folder is read too. */
  userConfigDir?: string;
}

/**
 * Agent definitions, later ones replacing earlier ones of the same name: the built-ins, the
 * user's (config dir), then the project's (.claude/agents/, then .vibe-agent/agents/).
 * A malformed file is skipped with a warning.
 */
export function loadAgents(dirs: AgentDirectories, warn: (message: string) => void = () => {}): AgentDefinition[] {
  const byName = new Map(BUILTIN_AGENTS.map((agent) => [agent.name, agent]));
  const folders = [
    ...(dirs.userConfigDir ? [join(dirs.userConfigDir, 'agents')] : []),
    join(dirs.workspace, '.claude', 'agents'),
    join(dirs.workspace, '.vibe-agent', 'agents'),
  ];
  for (const folder of folders) {
    for (const file of markdownFiles(folder)) {
      const path = join(folder, file);
      try {
        const agent = parseAgentFile(readFileSync(path, 'utf8'), path);
        byName.set(agent.name, agent);
      } catch (error) {
        warn(`agent file ${path} skipped: ${errorText(error)}`);
      }
    }
  }
  return [...byName.values()];
}

function markdownFiles(folder: string): string[] {
  try {
    return readdirSync(folder).filter((name) => name.endsWith('.md')).sort();
  } catch {
    return [];
  }
}
