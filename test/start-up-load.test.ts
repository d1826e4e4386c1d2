import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { spawnCli } from './support/cli-process.js';

// What a one-shot run compiles before its first request is most of its start-up (bench/side-by-side.bench.mjs).
// The module-log hook lists every file the run imports; the bundle's chunks name their sources in comments.
const REGISTER = join(import.meta.dirname, 'fixtures', 'module-log', 'register.mjs');
const root = mkdtempSync(join(tmpdir(), 'vibe-start-load-'));
const chats: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(chats.splice(0).map((chat) => chat.close()));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

let count = 0;
async function run(args: string[], files: Record<string, string> = {}) {
  const chat = await startChatServer([{ text: 'fine' }]);
  chats.push(chat);
  const dir = join(root, `case-${++count}`);
  const workspace = join(dir, 'workspace');
  mkdirSync(workspace, { recursive: true });
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(workspace, path, '..'), { recursive: true });
    writeFileSync(join(workspace, path), text);
  }
  const log = join(dir, 'modules.txt');
  const env = { HOME: join(dir, 'home'), XDG_CONFIG_HOME: join(dir, 'home', '.config'), XDG_DATA_HOME: join(dir, 'home', 'data'), VIBE_MODEL: 'test-model', OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: chat.url };
  const ran = await spawnCli(['go', '--no-session', ...args], { cwd: workspace, env: { ...env, NODE_OPTIONS: `--import ${REGISTER}`, MODULE_LOG: log } });
  expect(ran.code, ran.stderr).toBe(0);
  expect(ran.stdout.trim()).toBe('fine');
  const files_ = [...new Set(readFileSync(log, 'utf8').split('\n'))].filter((url) => url.startsWith('file:') && url.includes('/dist/cli/'));
  const code = files_.map((url) => readFileSync(new URL(url), 'utf8')).join('\n');
  return { chat, files: files_, has: (marker: string) => code.includes(marker) };
}

describe('what a one-shot run loads before its first request', () => {
  it('--tools calculator: about twenty bundle files, no tool code (the schema comes from the build-time spec), no yaml, minisearch or ignore', async () => {
    const { chat, files, has } = await run(['--tools', 'calculator']);
    expect(chat.requests[0]!.tools!.map((tool) => tool.function.name)).toEqual(['calculator']);
    expect(chat.requests[0]!.tools![0]!.function.parameters).toMatchObject({ type: 'object', properties: { expression: { type: 'string' } }, required: ['expression'] });
    // A few chunks hold the run's whole static closure; before, it was cut into ~60 (bundle-cli.mjs).
    expect(files.length).toBeGreaterThan(5);
    expect(files.length).toBeLessThanOrEqual(25);
    // The bundle's openai client builds chat alone (scripts/bundle-cli.mjs, openai-chat-only).
    expect(has('node_modules/openai/resources/chat/completions/completions.mjs')).toBe(true);
    for (const resource of ['beta/', 'responses/', 'realtime/', 'vector-stores/', 'fine-tuning/', 'audio/', 'embeddings.mjs', 'batches.mjs']) {
      expect(has(`node_modules/openai/resources/${resource}`), resource).toBe(false);
    }
    expect(has('node_modules/openai/lib/AssistantStream.mjs')).toBe(false);
    for (const absent of ['// dist/tools/builtin/calculator.js', '// dist/tools/builtin/expression.js', '// dist/tools/coding/files/', '// dist/tools/coding/edit/', '// dist/tools/coding/search/', '// dist/tools/coding/shell/bash.js', 'node_modules/yaml/', 'node_modules/minisearch/', 'node_modules/ignore/', 'dist/knowledge/docs-index.js', 'node_modules/zod/v4/locales/de.js', 'node_modules/zod/v4/classic/from-json-schema.js']) {
      expect(has(absent), absent).toBe(false);
    }
  });

  it('the default tools: their schemas all in the first request, none of their code, still no yaml or minisearch', async () => {
    const { chat, has } = await run([]);
    expect(chat.requests[0]!.tools!.map((tool) => tool.function.name)).toEqual(['read_file', 'write_file', 'edit_file', 'list_files', 'grep', 'bash', 'bash_output', 'bash_kill', 'fetch_url', 'remember']);
    expect(chat.requests[0]!.tools![0]!.function.parameters).toMatchObject({ type: 'object', properties: { path: { type: 'string' } }, required: ['path'] });
    expect(has('// dist/tools/coding/files/read-file.js')).toBe(false);
    expect(has('// dist/tools/coding/shell/bash.js')).toBe(false);
    expect(has('node_modules/yaml/')).toBe(false);
    expect(has('node_modules/minisearch/')).toBe(false);
  });

  it('a skill whose front matter only the yaml package reads still reaches the system prompt (it loads on demand)', async () => {
    const skill = (name: string, front: string) => [`.vibe-agent/skills/${name}/SKILL.md`, `---\n${front}\n---\nDo it.\n`];
    const { chat } = await run(['--tools', 'calculator,skill'], Object.fromEntries([skill('plain', 'name: plain\ndescription: Plain text, read without the package.'), skill('quoted', 'name: quoted\ndescription: "Quoted: needs the yaml package"')]));
    const system = String(chat.requests[0]!.messages[0]!.content);
    expect(system).toContain('plain: Plain text, read without the package.');
    expect(system).toContain('quoted: Quoted: needs the yaml package');
  });
});
