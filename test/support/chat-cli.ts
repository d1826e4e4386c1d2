import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { startChatServer, type ChatServer, type ServerStep } from './chat-server.js';
import { cliHome, type CliHome } from './cli-process.js';

/**
 * The built CLI against a scripted chat server, in a fresh home and workspace, all closed after each
 * test: `const setup = useChatCli(); const { run, read } = await setup([...steps]);`.
 * `leadingArgs` go before every run's own arguments (e.g. `--sandbox off`); a run's `extraEnv` adds to its environment.
 */
export function useChatCli(leadingArgs: string[] = []) {
  const servers: ChatServer[] = [];
  const homes: CliHome[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
    for (const home of homes.splice(0)) home.cleanup();
  });
  return async (script: ServerStep[]) => {
    const server = await startChatServer(script);
    servers.push(server);
    const home = cliHome();
    homes.push(home);
    const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' };
    const file = (name: string) => join(home.workspace, name);
    const read = (name: string) => (existsSync(file(name)) ? readFileSync(file(name), 'utf8') : undefined);
    return { server, home, env, file, read, run: (args: string[], extraEnv: Record<string, string> = {}) => home.run([...leadingArgs, ...args], { ...env, ...extraEnv }) };
  };
}
