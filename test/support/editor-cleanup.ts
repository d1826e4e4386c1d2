import type { ChildProcess } from 'node:child_process';
import { afterEach } from 'vitest';
import type { CliHome } from './cli-process.js';

/**
 * What an editor test starts — agent processes, model servers, CLI homes — gathered to be stopped
 * and removed after each test; push each one as it is started.
 */
export function cleanedAfterEach<Server extends { close(): Promise<unknown> }>(): { agents: ChildProcess[]; servers: Server[]; homes: CliHome[] } {
  const started = { agents: [] as ChildProcess[], servers: [] as Server[], homes: [] as CliHome[] };
  afterEach(async () => {
    for (const child of started.agents.splice(0)) if (child.exitCode === null) child.kill();
    await Promise.all(started.servers.splice(0).map((server) => server.close()));
    for (const home of started.homes.splice(0)) home.cleanup();
  });
  return started;
}
