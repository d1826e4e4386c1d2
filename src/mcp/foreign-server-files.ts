import { homedir } from 'node:os';
import { join } from 'node:path';

/** The other agents' files that may name MCP servers: Gemini CLI's settings.json, Codex's config.toml, Claude Code's .mcp.json. */
export function foreignServerFiles(workspace: string, env: NodeJS.ProcessEnv) {
  const home = env.HOME || homedir();
  const codexHome = env.CODEX_HOME || join(home, '.codex');
  return {
    userGemini: join(home, '.gemini', 'settings.json'),
    userCodex: join(codexHome, 'config.toml'),
    projectClaude: join(workspace, '.mcp.json'),
    projectGemini: join(workspace, '.gemini', 'settings.json'),
    projectCodex: join(workspace, '.codex', 'config.toml'),
  };
}
