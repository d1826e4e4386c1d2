import { afterEach, describe, expect, it } from 'vitest';
import { cliHome, type CliHome } from './support/cli-process.js';

const homes: CliHome[] = [];
afterEach(() => homes.splice(0).forEach((home) => home.cleanup()));

describe('a background session id nobody started', () => {
  it.each(['land', 'approve', 'attach', 'logs', 'stop', 'discard'])('%s says so in one line and exits 2, no stack trace', async (command) => {
    const home = cliHome();
    homes.push(home);
    const ran = await home.run([command, 'nosuch']);
    expect(ran.stderr).toBe('vibe-agent: no background session "nosuch" (vibe-agent agents lists them)\n');
    expect(ran.code).toBe(2);
  });
});
