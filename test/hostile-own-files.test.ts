/**
 * Every kind of file the agent reads on its own, shipped by a repository in a hostile shape: a link
 * (absolute, relative, a chain, through a linked folder) to a file outside, a FIFO, a link to
 * /dev/zero, a file over the cap, a folder, a dangling link. Each reader refuses or skips it, with a
 * message naming the file, and nothing from outside reaches what it returns.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, relative } from 'node:path';
import fc from 'fast-check';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadAgents } from '../src/agents/load-agents.js';
import { loadConfig } from '../src/cli/settings/config.js';
import { discoverCommands } from '../src/commands/discover-commands.js';
import { foreignHookSources } from '../src/hooks/foreign-hooks.js';
import { DocsIndex } from '../src/knowledge/docs-index.js';
import { listDocFiles } from '../src/knowledge/list-doc-files.js';
import { collectServers } from '../src/mcp/server-sources.js';
import { collectMemorySources } from '../src/memory/memory-sources.js';
import { bundledFiles } from '../src/skills/bundled-files.js';
import { discoverSkills } from '../src/skills/discover-skills.js';
import { ANYWHERE, readOwnText, readOwnTextAsync, RefusedFileError } from '../src/workspace/read-own-file.js';
import { walkConfined } from '../src/workspace/walk-confined.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { spawnCli } from './support/cli-process.js';

const MARK = 'LEAKED';
const MB = 1024 * 1024;
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const SHAPES = ['absolute link', 'relative link', 'link chain', 'linked folder', 'through a linked folder', 'fifo', 'link to /dev/zero', 'oversize', 'directory', 'dangling link'] as const;
type Shape = (typeof SHAPES)[number];

interface Layout {
  root: string;
  workspace: string;
  outside: string;
  env: { HOME: string; XDG_CONFIG_HOME: string; XDG_CACHE_HOME: string };
}

function layout(): Layout {
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'vibe-own-files-')));
  temps.push(root);
  const workspace = join(root, 'ws');
  const outside = join(root, 'outside');
  mkdirSync(join(workspace, '.git'), { recursive: true });
  mkdirSync(outside);
  const home = join(root, 'home');
  mkdirSync(home);
  return { root, workspace, outside, env: { HOME: home, XDG_CONFIG_HOME: join(home, '.config'), XDG_CACHE_HOME: join(home, '.cache') } };
}

function write(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** What a reader gave back (all of it, as text) and what it said. */
interface Outcome {
  text: string;
  warnings: string[];
}

interface Reader {
  /** The file, relative to the workspace. */
  target: string;
  /** A file of that kind naming MARK everywhere it can: if it were read, MARK would show. */
  payload: string;
  maxBytes: number;
  /** Shapes skipped without a word, because they are no file of that kind at all (a folder named x.md among commands). */
  quiet?: Shape[];
  prepare?(layout: Layout): void;
  read(layout: Layout): Outcome | Promise<Outcome>;
}

const collect = () => {
  const warnings: string[] = [];
  return { warnings, warn: (message: string) => void warnings.push(message) };
};

const servers = (l: Layout): Outcome => {
  const { warnings, warn } = collect();
  const entries = collectServers({ workspace: l.workspace, env: l.env, userConfigFile: join(l.env.XDG_CONFIG_HOME, 'vibe-agent/config.json'), projectConfigFile: join(l.workspace, '.vibe-agent/config.json'), warn });
  return { text: JSON.stringify(entries), warnings };
};

const hooks = (l: Layout): Outcome => {
  const { warnings, warn } = collect();
  const sources = foreignHookSources({ gemini: join(l.workspace, '.gemini'), codex: join(l.workspace, '.codex'), claude: join(l.workspace, '.claude') }, 'project', [l.workspace], warn);
  return { text: JSON.stringify(sources), warnings };
};

const READERS: Record<string, Reader> = {
  'project config': {
    target: '.vibe-agent/config.json',
    payload: `{"model":"${MARK}"}`,
    maxBytes: MB,
    read: async (l) => {
      const { warnings, warn } = collect();
      return { text: JSON.stringify(await loadConfig(l.workspace, l.env, warn)), warnings };
    },
  },
  '.mcp.json': { target: '.mcp.json', payload: `{"mcpServers":{"${MARK}":{"command":"${MARK}"}}}`, maxBytes: MB, read: servers },
  'Gemini CLI settings (MCP servers)': { target: '.gemini/settings.json', payload: `{"mcpServers":{"${MARK}":{"command":"${MARK}"}}}`, maxBytes: MB, read: servers },
  'Codex config.toml (MCP servers)': { target: '.codex/config.toml', payload: `[mcp_servers.${MARK}]\ncommand = "${MARK}"\n`, maxBytes: MB, read: servers },
  'Gemini CLI settings (hooks)': {
    target: '.gemini/settings.json',
    payload: `{"hooks":{"BeforeTool":[{"matcher":"*","hooks":[{"type":"command","command":"${MARK}"}]}]}}`,
    maxBytes: MB,
    read: hooks,
  },
  'Claude Code settings.json (hooks)': { target: '.claude/settings.json', payload: `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"${MARK}"}]}]}}`, maxBytes: MB, read: hooks },
  'Claude Code settings.local.json (hooks)': { target: '.claude/settings.local.json', payload: `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"${MARK}"}]}]}}`, maxBytes: MB, read: hooks },
  'Codex hooks.json': { target: '.codex/hooks.json', payload: `{"hooks":{"PreToolUse":[{"matcher":"*","hooks":[{"type":"command","command":"${MARK}"}]}]}}`, maxBytes: MB, read: hooks },
  'AGENTS.md': {
    target: 'AGENTS.md',
    payload: `${MARK} instructions\n`,
    maxBytes: MB,
    read: (l) => {
      const { warnings, warn } = collect();
      return { text: JSON.stringify(collectMemorySources({ workspace: l.workspace, env: l.env, warn })), warnings };
    },
  },
  'SKILL.md': {
    target: '.claude/skills/s/SKILL.md',
    payload: `---\ndescription: ${MARK}\n---\n${MARK}\n`,
    maxBytes: 256 * 1024,
    read: (l) => {
      const { skills, warnings } = discoverSkills(l.workspace, l.env);
      return { text: JSON.stringify(skills), warnings };
    },
  },
  'a skill’s bundled file': {
    target: '.claude/skills/s/reference.md',
    payload: `${MARK}\n`,
    maxBytes: Number.MAX_SAFE_INTEGER,
    // Listed, not read: the model reads them with read_file, through its own checks. What the listing holds is checked here.
    quiet: [...SHAPES],
    prepare: (l) => write(join(l.workspace, '.claude/skills/s/SKILL.md'), '---\ndescription: fine\n---\nbody\n'),
    read: (l) => {
      const skill = discoverSkills(l.workspace, l.env).skills[0];
      const listed = skill ? bundledFiles(skill.dir).files : [];
      // What a consumer that trusted the listing would read: only regular files inside the skill's folder may be in it.
      const unsafe = listed.filter((path) => !statSync(path).isFile() || relative(skill!.dir, realpathSync(path)).startsWith('..'));
      return { text: unsafe.length ? `${MARK}: ${unsafe.join(', ')}` : listed.map((path) => readFileSync(path, 'utf8')).join(''), warnings: [] };
    },
  },
  'agent file': {
    target: '.claude/agents/a.md',
    payload: `---\nname: leaked\ndescription: ${MARK}\n---\n${MARK}\n`,
    maxBytes: 256 * 1024,
    read: (l) => {
      const { warnings, warn } = collect();
      return { text: JSON.stringify(loadAgents({ workspace: l.workspace, env: l.env }, warn).filter((agent) => agent.name !== 'general')), warnings };
    },
  },
  'custom command': {
    target: '.claude/commands/c.md',
    payload: `---\ndescription: ${MARK}\n---\n${MARK}\n`,
    maxBytes: 128 * 1024,
    quiet: ['directory'],
    read: (l) => {
      const { commands, warnings } = discoverCommands(l.workspace, l.env);
      return { text: JSON.stringify(commands), warnings };
    },
  },
  'knowledge file': {
    target: 'docs/guide.md',
    payload: `# ${MARK}\n\n${MARK} text\n`,
    maxBytes: 2 * MB,
    // Files over 2 MB are left out as no documentation, and a folder named guide.md is a folder.
    quiet: ['oversize', 'directory'],
    prepare: (l) => {
      write(join(l.workspace, 'docs/readme.md'), '# Readme\n\nfine\n');
      write(join(l.workspace, '.vibe-agent/config.json'), '{"knowledge":[{"name":"docs","path":"docs"}]}');
    },
    read: async (l) => {
      const { warnings, warn } = collect();
      const sources = (await loadConfig(l.workspace, l.env, warn)).knowledge ?? [];
      const listed = listDocFiles(sources).map((file) => file.path);
      const index = await DocsIndex.open(sources, join(l.root, 'index.json'), { onSkipped: (path, reason) => void warnings.push(`${path} skipped: ${reason}`) });
      const outside = listed.filter((path) => relative(l.workspace, realpathSync(path)).startsWith('..'));
      return { text: JSON.stringify({ outside: outside.length ? MARK : '', hits: index.search(MARK, 5) }), warnings };
    },
  },
};

/** Makes `target` (in the workspace) hostile in the given shape; the payload sits outside where a link leads. */
function plant(l: Layout, reader: Reader, shape: Shape, depth: number): void {
  const target = join(l.workspace, reader.target);
  const payload = join(l.outside, `payload-${depth}`, basename(reader.target));
  write(payload, reader.payload);
  mkdirSync(dirname(target), { recursive: true });
  switch (shape) {
    case 'absolute link':
      return symlinkSync(payload, target);
    case 'relative link':
      return symlinkSync(relative(dirname(target), payload), target);
    case 'link chain': {
      // target -> ws/chain-1 -> … -> ws/chain-depth -> outside
      let next = payload;
      for (let i = depth; i >= 1; i--) {
        const link = join(l.workspace, `chain-${i}`);
        symlinkSync(i === depth ? relative(l.workspace, next) : basename(next), link);
        next = link;
      }
      return symlinkSync(relative(dirname(target), next), target);
    }
    case 'linked folder': {
      // The first folder of the target's path (or the file's own folder) is a link to a folder outside holding the payload.
      const parts = reader.target.split('/');
      const first = join(l.workspace, parts[0]!);
      if (parts.length === 1) return symlinkSync(relative(dirname(target), payload), target);
      rmSync(first, { recursive: true, force: true });
      write(join(l.outside, 'tree', ...parts), reader.payload);
      return symlinkSync(join(l.outside, 'tree', parts[0]!), first);
    }
    case 'through a linked folder': {
      // A folder link inside the workspace, and the target a relative link through it.
      const via = join(l.workspace, 'via');
      symlinkSync(dirname(payload), via);
      return symlinkSync(relative(dirname(target), join(via, basename(payload))), target);
    }
    case 'fifo':
      return void execFileSync('mkfifo', [target]);
    case 'link to /dev/zero':
      return symlinkSync('/dev/zero', target);
    case 'oversize':
      return writeFileSync(target, reader.payload + ' '.repeat(Math.min(reader.maxBytes, 4 * MB) + 1));
    case 'directory':
      return mkdirSync(target);
    case 'dangling link':
      return symlinkSync(join(l.workspace, 'nothing', `here-${depth}`), target);
  }
}

describe('every reader of the agent’s own files, given hostile shapes', () => {
  for (const [kind, reader] of Object.entries(READERS)) {
    it(`${kind}: refused or skipped, with a message, never read from outside`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...SHAPES), fc.integer({ min: 1, max: 4 }), async (shape, depth) => {
          if (shape === 'oversize' && reader.maxBytes > 4 * MB) return;
          const l = layout();
          reader.prepare?.(l);
          plant(l, reader, shape, depth);
          const outcome = await reader.read(l);
          expect(outcome.text).not.toContain(MARK);
          if (!reader.quiet?.includes(shape)) expect(outcome.warnings.join('\n')).toMatch(new RegExp(`${basename(reader.target).replace('.', '\\.')}|${reader.target.split('/')[0]!.replace('.', '\\.')}`));
        }),
        { numRuns: 25 },
      );
    });
  }

  it('each reader reads its file when it is an ordinary file inside (the tests above are not vacuous)', async () => {
    for (const reader of Object.values(READERS)) {
      const l = layout();
      reader.prepare?.(l);
      write(join(l.workspace, reader.target), reader.payload);
      const outcome = await reader.read(l);
      if (reader.target.endsWith('reference.md')) expect(outcome.warnings).toEqual([]);
      else expect(outcome.text).toContain(MARK);
    }
  });

  it('a link inside the workspace (CLAUDE.md -> AGENTS.md, a shared skill folder) is still read', async () => {
    const l = layout();
    write(join(l.workspace, 'shared/AGENTS.md'), 'inside instructions\n');
    symlinkSync('shared/AGENTS.md', join(l.workspace, 'AGENTS.md'));
    write(join(l.workspace, 'skills-shared/s/SKILL.md'), '---\ndescription: shared\n---\nshared body\n');
    mkdirSync(join(l.workspace, '.claude/skills'), { recursive: true });
    symlinkSync('../../skills-shared/s', join(l.workspace, '.claude/skills/s'));
    expect(collectMemorySources({ workspace: l.workspace, env: l.env }).map((source) => source.text)).toEqual(['inside instructions\n']);
    expect(discoverSkills(l.workspace, l.env).skills.map((skill) => skill.description)).toEqual(['shared']);
  });
});

describe('the user’s own files', () => {
  it('a user config linked from anywhere is read (dotfile managers link out of the home); a FIFO stops with an error naming it', async () => {
    const l = layout();
    const configFile = join(l.env.XDG_CONFIG_HOME, 'vibe-agent/config.json');
    mkdirSync(dirname(configFile), { recursive: true });
    write(join(l.outside, 'store/vibe.json'), '{"model":"from-store"}');
    symlinkSync(join(l.outside, 'store/vibe.json'), configFile);
    expect((await loadConfig(l.workspace, l.env)).model).toBe('from-store');
    rmSync(configFile);
    execFileSync('mkfifo', [configFile]);
    await expect(loadConfig(l.workspace, l.env)).rejects.toThrow(/is a named pipe \(FIFO\), not a regular file/);
  });

  it('user skills, agents and commands linked from outside the home are the user\'s own: read; a FIFO among them is skipped with a warning', () => {
    const l = layout();
    const config = join(l.env.XDG_CONFIG_HOME, 'vibe-agent');
    write(join(l.outside, 'skill/SKILL.md'), '---\ndescription: linked skill\n---\nbody\n');
    write(join(l.outside, 'agent.md'), '---\nname: linked\ndescription: linked agent\n---\n');
    write(join(l.outside, 'command.md'), 'linked command\n');
    mkdirSync(join(config, 'skills'), { recursive: true });
    mkdirSync(join(config, 'agents'), { recursive: true });
    mkdirSync(join(config, 'commands'), { recursive: true });
    symlinkSync(join(l.outside, 'skill'), join(config, 'skills/s'));
    symlinkSync(join(l.outside, 'agent.md'), join(config, 'agents/a.md'));
    symlinkSync(join(l.outside, 'command.md'), join(config, 'commands/c.md'));
    execFileSync('mkfifo', [join(config, 'agents/pipe.md')]);
    const skills = discoverSkills(l.workspace, l.env);
    const agentWarnings: string[] = [];
    const agents = loadAgents({ workspace: l.workspace, userConfigDir: config, env: l.env }, (message) => void agentWarnings.push(message));
    const commands = discoverCommands(l.workspace, l.env);
    expect(skills.skills.map((skill) => skill.description)).toContain('linked skill');
    expect(agents.map((agent) => agent.name)).toContain('linked');
    expect(commands.commands.map((command) => command.name)).toContain('c');
    expect(agentWarnings).toEqual([expect.stringMatching(/agents\/pipe\.md skipped: .*named pipe/)]);
  });
});

describe('the opener itself', () => {
  it('names the file and why: outside its root after links, not a regular file, over the cap, a dangling link', () => {
    const l = layout();
    write(join(l.outside, 'secret'), 'x');
    symlinkSync(join(l.outside, 'secret'), join(l.workspace, 'out'));
    execFileSync('mkfifo', [join(l.workspace, 'pipe')]);
    write(join(l.workspace, 'big'), 'x'.repeat(11));
    symlinkSync('gone', join(l.workspace, 'dangling'));
    const within = [l.workspace];
    const refused = (name: string) => {
      try {
        readOwnText(join(l.workspace, name), { within, maxBytes: 10 });
      } catch (error) {
        return error as RefusedFileError;
      }
      throw new Error(`${name} was read`);
    };
    expect(refused('out')).toMatchObject({ code: 'EOUTSIDE', message: `${join(l.workspace, 'out')} leads outside ${l.workspace} (to ${join(l.outside, 'secret')}); it was not read.` });
    expect(refused('pipe')).toMatchObject({ code: 'ENOTREG', message: `${join(l.workspace, 'pipe')} is a named pipe (FIFO), not a regular file; it was not read.` });
    expect(refused('big')).toMatchObject({ code: 'EFBIG', message: `${join(l.workspace, 'big')} is larger than 10 bytes; it was not read.` });
    expect(refused('dangling')).toMatchObject({ code: 'EDANGLING', message: `${join(l.workspace, 'dangling')} is a link to nothing (gone); it was not read.` });
    expect(refused('missing')).toMatchObject({ code: 'ENOENT' });
    expect(readOwnText(join(l.workspace, 'out'), { within: ANYWHERE, maxBytes: 10 })).toBe('x');
  });

  it('reads asynchronously without waiting on a FIFO, and a slow read leaves the event loop free', async () => {
    const l = layout();
    execFileSync('mkfifo', [join(l.workspace, 'pipe')]);
    await expect(readOwnTextAsync(join(l.workspace, 'pipe'), { within: [l.workspace], maxBytes: 10 })).rejects.toMatchObject({ code: 'ENOTREG' });
    write(join(l.workspace, 'big'), 'y'.repeat(8 * MB));
    let turns = 0;
    const ticking = setInterval(() => turns++, 0);
    const text = await readOwnTextAsync(join(l.workspace, 'big'), { within: [l.workspace], maxBytes: 8 * MB });
    clearInterval(ticking);
    expect(text).toHaveLength(8 * MB);
    // 128 chunks of 64 KiB, each an await: timers get their turn between them.
    expect(turns).toBeGreaterThan(0);
  });

  it('a walk follows links only inside its root, walks a folder reached twice once, and names what it passed over', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.boolean(), (depth, loop) => {
        const l = layout();
        const root = join(l.workspace, 'root');
        let dir = root;
        for (let i = 0; i < depth; i++) dir = join(dir, `d${i}`);
        write(join(dir, 'deep.md'), 'deep');
        write(join(l.outside, 'far.md'), MARK);
        symlinkSync(join(l.outside, 'far.md'), join(dir, 'far.md'));
        symlinkSync(relative(dir, l.outside), join(dir, 'out-dir'));
        symlinkSync('../'.repeat(depth + 3), join(dir, 'up'));
        if (loop) symlinkSync(relative(dir, root), join(dir, 'loop'));
        const files: string[] = [];
        const skipped: string[] = [];
        walkConfined(root, { file: (path) => void files.push(path), skipped: (path, reason) => void skipped.push(`${basename(path)}: ${reason}`) });
        expect(files).toEqual([join(dir, 'deep.md')]);
        expect(skipped.sort()).toEqual([expect.stringMatching(/^far\.md: leads outside /), expect.stringMatching(/^out-dir: leads outside /), expect.stringMatching(/^up: leads outside /)]);
      }),
      { numRuns: 20 },
    );
  });
});

describe('the CLI in a repository that ships its files as FIFOs and links out', () => {
  const servers: ChatServer[] = [];
  afterEach(async () => {
    await Promise.all(servers.splice(0).map((server) => server.close()));
  });

  /** FIFOs no one writes to where a run reads MCP servers, hooks and agents; a skill whose SKILL.md leads outside. */
  function trappedRepository(): Layout {
    const l = layout();
    for (const name of ['.mcp.json', '.gemini/settings.json', '.codex/config.toml', '.codex/hooks.json', '.claude/agents/a.md']) {
      mkdirSync(dirname(join(l.workspace, name)), { recursive: true });
      execFileSync('mkfifo', [join(l.workspace, name)]);
    }
    write(join(l.outside, 'SKILL.md'), `---\ndescription: ${MARK}\n---\n${MARK}\n`);
    mkdirSync(join(l.workspace, '.claude/skills/s'), { recursive: true });
    symlinkSync(join(l.outside, 'SKILL.md'), join(l.workspace, '.claude/skills/s/SKILL.md'));
    return l;
  }

  const cliEnv = (l: Layout, server: ChatServer) => ({ ...l.env, XDG_DATA_HOME: join(l.root, 'data'), OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model' });

  it('a one-shot run warns about each file, names why, and answers without reading outside', async () => {
    const l = trappedRepository();
    const server = await startChatServer([{ text: 'done' }]);
    servers.push(server);
    const ran = await spawnCli(['-p', 'hi', '--tools', 'read_file,task'], { cwd: l.workspace, env: cliEnv(l, server) });
    expect(ran.stderr).toMatch(/\.mcp\.json is a named pipe \(FIFO\), not a regular file; it was not read, so its MCP servers are skipped/);
    expect(ran.stderr).toMatch(/\.codex\/hooks\.json is a named pipe \(FIFO\), not a regular file; it was not read, so its hooks are skipped/);
    expect(ran.stderr).toMatch(/agent file .*\.claude\/agents\/a\.md skipped: .*a\.md is a named pipe \(FIFO\)/);
    expect(ran.stdout).toContain('done');
    expect(ran.code).toBe(0);
    expect(JSON.stringify(server.requests)).not.toContain(MARK);
  });

  it('index names each document it passed over, and indexes none of what is outside', async () => {
    const l = layout();
    write(join(l.workspace, 'docs/guide.md'), '# Guide\n\ninside\n');
    write(join(l.outside, 'secret.md'), `# ${MARK}\n`);
    symlinkSync(join(l.outside, 'secret.md'), join(l.workspace, 'docs/secret.md'));
    execFileSync('mkfifo', [join(l.workspace, 'docs/pipe.md')]);
    const ran = await spawnCli(['index', '--docs', 'docs'], { cwd: l.workspace, env: l.env });
    expect(ran.stderr).toContain(`warning: ${join(l.workspace, 'docs/secret.md')} skipped: leads outside ${join(l.workspace, 'docs')} (to ${join(l.outside, 'secret.md')}).`);
    expect(ran.stderr).toContain(`warning: ${join(l.workspace, 'docs/pipe.md')} skipped: not a regular file (it is a named pipe (FIFO)).`);
    expect(ran.stdout).toMatch(/^Indexed 1 file /);
    expect(ran.code).toBe(0);
  });

  it('mcp list says why .mcp.json was skipped and exits', async () => {
    const l = trappedRepository();
    const ran = await spawnCli(['mcp', 'list'], { cwd: l.workspace, env: l.env });
    expect(ran.stderr).toMatch(/\.mcp\.json is a named pipe \(FIFO\)/);
    expect(ran.code).toBe(0);
  });

  it('Ctrl-C (SIGINT) ends a run that met them, while it waits on the model', async () => {
    const l = trappedRepository();
    const server = await startChatServer([{ kind: 'silent' }]);
    servers.push(server);
    const ran = await spawnCli(['-p', 'hi', '--tools', 'read_file,task'], {
      cwd: l.workspace,
      env: cliEnv(l, server),
      onSpawn: (child) => void server.waitForRequest(1).then(() => child.kill('SIGINT')),
    });
    expect(ran.stderr).toMatch(/\.mcp\.json is a named pipe/);
    expect(ran.code).toBe(130);
  });
});
