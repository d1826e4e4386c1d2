import { collectServers } from '../mcp/server-sources.js';
import type { ServerEntry } from '../mcp/server-spec.js';
import { userFileRoots } from '../workspace/own-file-roots.js';
import { readConfigFile, userConfigPath, type FileConfig } from './config.js';
import { editableFiles, readServersFile } from './mcp-config-file.js';

/**
 * Every server a run in this workspace would find, in the order it finds them (see
 * collectServers); `warn` hears of the entries it would skip (duplicates, malformed ones).
 * Our own files are read as `mcp add` reads them; one that is not JSON counts as holding none.
 */
export function configuredServers(workspace: string, env: NodeJS.ProcessEnv, warn: (message: string) => void = () => {}): ServerEntry[] {
  const [user, , projectOwn] = editableFiles(workspace, env);
  const serversOf = (file: typeof user) => {
    try {
      return readServersFile(file!).servers;
    } catch {
      return {};
    }
  };
  return collectServers({
    workspace,
    env,
    userServers: serversOf(user),
    userConfigFile: user!.path,
    projectServers: serversOf(projectOwn),
    projectConfigFile: projectOwn!.path,
    warn,
  });
}

/** The user's config, as a run reads it (what it holds of mcpPassEnv and trustProjectMcp matters here). */
export function userSettings(env: NodeJS.ProcessEnv): Promise<FileConfig> {
  return readConfigFile(userConfigPath(env), { within: userFileRoots(env), user: true });
}
