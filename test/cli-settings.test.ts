import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { homeEnv, spawnCli, type Ran } from './support/cli-process.js';

const home = mkdtempSync(join(tmpdir(), 'vibe-cli-settings-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function cli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  return spawnCli(args, { cwd: home, env: { ...homeEnv(home), ...env } });
}

describe('usage errors from the real CLI', () => {
  it('an unknown option is named, with the option meant, and exits 2', async () => {
    const ran = await cli(['--modle', 'gpt-4o', 'hello']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toBe('vibe-agent: unknown option --modle (did you mean --model?)\nRun "vibe-agent --help" for the options.\n');
    expect(ran.stdout).toBe('');
  });

  it('an option nothing resembles gets no guess', async () => {
    const ran = await cli(['--frobnicate', 'hello']);
    expect(ran.code).toBe(2);
    expect(ran.stderr).toBe('vibe-agent: unknown option --frobnicate\nRun "vibe-agent --help" for the options.\n');
  });
});

describe('a base URL on a port Node fetch refuses', () => {
  // Nothing listens on 6000: fetch refuses before connecting, so only the message can tell the user why.
  it('--base-url on port 6000 stops at once with the reason and another port to use (exit 2)', async () => {
    const ran = await cli(['--base-url', 'http://127.0.0.1:6000/v1', '--model', 'm', '--no-session', 'hello'], { OPENAI_API_KEY: 'k' });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("vibe-agent: --base-url http://127.0.0.1:6000/v1: Node's fetch refuses to connect to port 6000");
    expect(ran.stderr).toContain('run the server on another port (e.g. 8000 or 8080)');
    expect(ran.stderr).not.toContain('retry');
    expect(ran.stderr).not.toContain('fetch failed');
  });

  it('names the variable when the port comes from OPENAI_BASE_URL', async () => {
    const ran = await cli(['--model', 'm', '--no-session', 'hello'], { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://localhost:10080/v1' });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain("vibe-agent: OPENAI_BASE_URL http://localhost:10080/v1: Node's fetch refuses to connect to port 10080");
  });
});
