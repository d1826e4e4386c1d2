import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { spawnCli } from './support/cli-process.js';
import { startResponsesServer, type ResponsesServer } from './support/responses-server.js';

// The bundle's openai client builds `chat` alone (scripts/bundle-cli.mjs); the Responses wire loads its resource itself.
const REGISTER = join(import.meta.dirname, 'fixtures', 'module-log', 'register.mjs');
const root = mkdtempSync(join(tmpdir(), 'vibe-responses-load-'));
const servers: ResponsesServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('what a Responses run loads', () => {
  it('--wire responses loads the responses resource in the bundle, and none of the resources a run never uses', async () => {
    const server = await startResponsesServer([{ text: 'fine' }]);
    servers.push(server);
    const workspace = join(root, 'workspace');
    mkdirSync(workspace, { recursive: true });
    const log = join(root, 'modules.txt');
    const env = { HOME: join(root, 'home'), XDG_CONFIG_HOME: join(root, 'home', '.config'), XDG_DATA_HOME: join(root, 'home', 'data'), VIBE_MODEL: 'gpt-4.1', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: server.url };
    const ran = await spawnCli(['go', '--no-session', '--wire', 'responses', '--tools', 'calculator'], { cwd: workspace, env: { ...env, NODE_OPTIONS: `--import ${REGISTER}`, MODULE_LOG: log } });
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout.trim()).toBe('fine');
    expect(server.violations).toEqual([]);
    const files = [...new Set(readFileSync(log, 'utf8').split('\n'))].filter((url) => url.startsWith('file:') && url.includes('/dist/cli/'));
    const code = files.map((url) => readFileSync(new URL(url), 'utf8')).join('\n');
    expect(code).toContain('node_modules/openai/resources/responses/responses.mjs');
    for (const resource of ['beta/', 'realtime/', 'vector-stores/', 'fine-tuning/', 'audio/', 'embeddings.mjs', 'batches.mjs']) expect(code.includes(`node_modules/openai/resources/${resource}`), resource).toBe(false);
  });
});
