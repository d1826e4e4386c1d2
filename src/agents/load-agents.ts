import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { errorText } from '../contracts/error-text.js';
import { userFileRoots } from '../workspace/own-file-roots.js';
import { readOwnText, type ReadRule } from '../workspace/read-own-file.js';
import { BUILTIN_AGENTS, type AgentDefinition } from './agent-definition.js';
import { parseAgentFile } from './parse-agent-file.js';

export interface AgentDirectories {
  workspace: string;
  /** The user's config directory (…/vibe-agent), whose agents/ folder is read too. */
  userConfigDir?: string;
  /** For where the user's files may really be (home, XDG_CONFIG_HOME); default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** Far above any real agent definition. */
const MAX_AGENT_FILE_BYTES = 256 * 1024;

/**
 * Agent definitions, later ones replacing earlier ones of the same name: the built-ins, the
 * user's (config dir), then the project's (.claude/agents/, then .vibe-agent/agents/).
 * A malformed file is skipped with a warning.
 */
export function loadAgents(dirs: AgentDirectories, warn: (message: string) => void = () => {}): AgentDefinition[] {
  const byName = new Map(BUILTIN_AGENTS.map((agent) => [agent.name, agent]));
  const user: ReadRule = { within: userFileRoots(dirs.env), maxBytes: MAX_AGENT_FILE_BYTES };
  const project: ReadRule = { within: [dirs.workspace], maxBytes: MAX_AGENT_FILE_BYTES };
  const folders = [
    ...(dirs.userConfigDir ? [{ folder: join(dirs.userConfigDir, 'agents'), rule: user }] : []),
    { folder: join(dirs.workspace, '.claude', 'agents'), rule: project },
    { folder: join(dirs.workspace, '.vibe-agent', 'agents'), rule: project },
  ];
  for (const { folder, rule } of folders) {
    for (const file of markdownFiles(folder)) {
      const path = join(folder, file);
      try {
        const agent = parseAgentFile(readOwnText(path, rule), path);
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
