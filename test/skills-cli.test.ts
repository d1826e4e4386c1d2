import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer, type ServerStep } from './support/chat-server.js';
import { spawnCli } from './support/cli-process.js';
import { skillRepo, writeCommands, writeSkills, type SkillRepo } from './support/skill-fixtures.js';

let fixture: SkillRepo;
const servers: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  fixture?.cleanup();
});

function setup(): SkillRepo {
  fixture = skillRepo();
  writeSkills(fixture);
  writeCommands(fixture);
  return fixture;
}

async function cli(args: string[], script: ServerStep[] = []) {
  const server = await startChatServer(script);
  servers.push(server);
  const env = { ...fixture.env, XDG_DATA_HOME: join(fixture.root, 'data'), OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' };
  return { server, ran: await spawnCli(args, { cwd: fixture.workspace, env }) };
}

describe('skills and commands from the CLI', () => {
  it('vibe-agent skills lists each skill with where it came from, and the commands; a malformed file is a warning', async () => {
    setup();
    const { ran } = await cli(['skills']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('  pdf-forms  Fill in PDF forms with the bundled script.');
    expect(ran.stdout).toContain(`      project: ${join(fixture.repo, '.claude/skills/pdf-forms/SKILL.md')}`);
    expect(ran.stdout).toContain('  release-notes  Write release notes from the changelog. [allowed-tools: read_file, grep]');
    expect(ran.stdout).toContain('  /review <file> [focus]  Review a file  (project: ');
    expect(ran.stderr).toMatch(/warning: .*broken\/SKILL\.md:3: malformed front matter/);
  });

  it('a one-shot run sees the skills in its system prompt and can load one and read its bundled file', async () => {
    setup();
    const fields = join(fixture.repo, '.claude/skills/pdf-forms/reference/fields.md');
    const { server, ran } = await cli(
      ['fill the form'],
      [{ toolCalls: [{ name: 'skill', arguments: { name: 'pdf-forms' } }] }, { toolCalls: [{ name: 'read_file', arguments: { path: fields } }] }, { text: 'done' }],
    );
    expect(ran.stderr).not.toContain('unexpected');
    expect(ran.code).toBe(0);
    const system = String(server.requests[0]!.messages[0]!.content);
    expect(system).toContain('- pdf-forms: Fill in PDF forms with the bundled script.');
    expect(server.requests.map((r) => String(r.messages[0]!.content))).toEqual([system, system, system]);
    expect(server.requests[0]!.tools!.map((t) => t.function.name)).toContain('skill');
    expect(String(server.requests[2]!.messages.at(-1)!.content)).toContain('FIELD-NAMES');
  });

  it('"/review args" one-shot sends the expanded prompt to the command’s model, with its tools narrowed', async () => {
    setup();
    const { server, ran } = await cli(['/review src/app.ts speed'], [{ toolCalls: [{ name: 'bash', arguments: { command: 'ls' } }] }, { text: 'reviewed' }]);
    expect(ran.code).toBe(0);
    expect(server.requests[0]!.model).toBe('review-model');
    expect(server.requests[0]!.messages[1]).toEqual({ role: 'user', content: 'Review src/app.ts with a focus on speed.\nAll arguments: src/app.ts speed' });
    expect(String(server.requests[1]!.messages.at(-1)!.content)).toMatch(/^Denied: bash is not allowed while the command \/review is active/);
  });

  it('a command’s !`cmd` is denied without approval (no terminal), and nothing is sent', async () => {
    setup();
    const { server, ran } = await cli(['/status']);
    expect(ran.code).toBe(4);
    expect(ran.stderr).toMatch(/\/status: the shell command `echo STATUS-OUTPUT` .* was not run: Denied/);
    expect(ran.stderr).toContain('"bash(echo*)"');
    expect(server.requests).toEqual([]);
  });
});

describe('vibe-agent index', () => {
  it('builds the index of --docs DIR under the cache dir, then finds it up to date; search_docs is offered to the model', async () => {
    setup();
    fixture.write('repo/app/handbook/deploy.md', '# Deploy\n\nUse the blue-green switch.\n');
    const cache = join(fixture.root, 'cache');
    const env = { ...fixture.env, XDG_CACHE_HOME: cache, XDG_DATA_HOME: join(fixture.root, 'data') };
    const first = await spawnCli(['index', '--docs', 'handbook'], { cwd: fixture.workspace, env });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^Indexed 1 file \(1 section, 1 shard\) from handbook in \d+ ms: 1 read, 0 dropped, 1 shard written\.\nWrote .* to .*\/cache\/vibe-agent\/knowledge\/[0-9a-f]{16}\.json\n$/);
    const second = await spawnCli(['index', '--docs', 'handbook'], { cwd: fixture.workspace, env });
    expect(second.stdout).toMatch(/0 read, 0 dropped, 0 shards written\.\nUp to date: /);

    const { server, ran } = await cli(['--docs', 'handbook', 'how do we deploy?'], [{ toolCalls: [{ name: 'search_docs', arguments: { query: 'deploy blue-green' } }] }, { text: 'blue-green' }]);
    expect(ran.code).toBe(0);
    expect(server.requests[0]!.tools!.map((t) => t.function.name)).toContain('search_docs');
    expect(String(server.requests[1]!.messages.at(-1)!.content)).toContain('handbook/deploy.md:3');
  });

  it('says what to do when no folder is configured', async () => {
    setup();
    const ran = await spawnCli(['index'], { cwd: fixture.workspace, env: fixture.env });
    expect(ran.code).toBe(2);
    expect(ran.stderr).toContain('No knowledge folders: pass --docs DIR');
  });
});
