import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer, type ServerStep } from './support/chat-server.js';
import { cliHome, type CliHome } from './support/cli-process.js';

// The real servers come from this repository's devDependencies (typescript-language-server, pyright).
const BIN = join(import.meta.dirname, '..', 'node_modules', '.bin');
const FAKE_SERVER = join(import.meta.dirname, 'fixtures', 'lsp', 'fake-server.mjs');

const servers: ChatServer[] = [];
const homes: CliHome[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
  for (const home of homes.splice(0)) home.cleanup();
});

async function setup(script: ServerStep[], files: Record<string, string>) {
  const server = await startChatServer(script);
  servers.push(server);
  const home = cliHome();
  homes.push(home);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(home.workspace, path, '..'), { recursive: true });
    writeFileSync(join(home.workspace, path), text);
  }
  const env = { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model', PATH: `${BIN}:${process.env.PATH ?? ''}` };
  const read = (path: string) => readFileSync(join(home.workspace, path), 'utf8');
  /** What the model was sent as the result of the call made in reply `turn` (1-based). */
  const result = (turn: number) => String(server.requests[turn]?.messages.at(-1)?.content ?? '');
  return { server, home, read, result, run: (args: string[], extra: Record<string, string> = {}) => home.run(args, { ...env, ...extra }) };
}

const nav = (args: Record<string, unknown>) => ({ toolCalls: [{ name: 'code_nav', arguments: args }] });
const USES = 11;

function tsProject(): Record<string, string> {
  const files: Record<string, string> = {
    'tsconfig.json': JSON.stringify({ compilerOptions: { strict: true, module: 'NodeNext', moduleResolution: 'NodeNext', target: 'ES2022' }, include: ['src'] }),
    'src/shapes.ts': 'export function area(width: number): number;\nexport function area(width: number, height: number): number;\nexport function area(width: number, height?: number): number {\n  return width * (height ?? width);\n}\n',
    'src/index.ts': "export { area } from './shapes.js';\n",
  };
  for (let i = 0; i < USES; i++) files[`src/use${i}.ts`] = `import { area } from './index.js';\nexport const v${i} = area(${i});\n`;
  return files;
}

describe('code_nav through the built CLI, against real language servers', () => {
  it('TypeScript: references through a re-export and overloads, an edit seen at once, a rename of 13 files that rewinds', { timeout: 240_000 }, async () => {
    const { server, read, result, run } = await setup(
      [
        nav({ operation: 'references', path: 'src/shapes.ts', symbol: 'area', line: 3 }),
        { toolCalls: [{ name: 'read_file', arguments: { path: 'src/use0.ts' } }] },
        { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/use0.ts', old_string: 'export const v0 = area(0);', new_string: 'export const v0 = area(0);\nexport const extra = area(7, 8);' } }] },
        nav({ operation: 'references', path: 'src/shapes.ts', symbol: 'area', line: 3 }),
        nav({ operation: 'definition', path: 'src/use3.ts', symbol: 'area', line: 2 }),
        nav({ operation: 'rename', path: 'src/shapes.ts', symbol: 'area', new_name: 'surface' }),
        { text: 'done' },
      ],
      tsProject(),
    );
    const ran = await run(['--permission-mode', 'yolo', '--sandbox', 'off', 'rename area']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(server.requests[0]!.tools!.map((tool) => tool.function.name)).toContain('code_nav');

    // 3 overload lines, the re-export, and an import and a call in each user.
    expect(result(1)).toContain(`${3 + 1 + 2 * USES} reference(s) to area`);
    expect(result(1)).toContain('src/index.ts:1:10: export { area } from');
    expect(result(1)).toContain(`src/use${USES - 1}.ts:2:`);
    // The line the agent added a moment ago is among them.
    expect(result(4)).toContain(`${3 + 1 + 2 * USES + 1} reference(s) to area`);
    expect(result(4)).toContain('src/use0.ts:3:22: export const extra = area(7, 8);');
    expect(result(5)).toMatch(/src\/use3\.ts:1:10: import \{ area \}|src\/shapes\.ts:\d+:17: export function area/);

    expect(result(6)).toContain(`Renamed area to surface: ${USES + 2} files changed.`);
    const all = ['src/shapes.ts', 'src/index.ts', ...Array.from({ length: USES }, (_, i) => `src/use${i}.ts`)];
    for (const path of all) {
      expect(read(path), path).toContain('surface');
      expect(read(path), path).not.toMatch(/\barea\b/);
    }

    // Rewinding the prompt brings every file the rename wrote back, and the agent's edit before it goes too.
    const listed = await run(['rewind', '--list']);
    expect(listed.stdout).toMatch(/ {4}1 .*"rename area" · changed src\/index\.ts, src\/shapes\.ts, src\/use0\.ts \+\d+ more\n$/);
    const rewound = await run(['rewind', '--files-only']);
    expect(rewound.code, rewound.stderr).toBe(0);
    for (const path of all) expect(read(path), path).not.toContain('surface');
    expect(read('src/use0.ts')).toBe('import { area } from \'./index.js\';\nexport const v0 = area(0);\n');
  });

  it('diagnostics after an edit come from the server that has the file open: only what the edit introduced', { timeout: 240_000 }, async () => {
    const { result, run } = await setup(
      [
        nav({ operation: 'hover', path: 'src/a.ts', symbol: 'b' }),
        { toolCalls: [{ name: 'read_file', arguments: { path: 'src/a.ts' } }] },
        { toolCalls: [{ name: 'edit_file', arguments: { path: 'src/a.ts', old_string: 'export const b = 1;', new_string: 'export const b: string = 1;' } }] },
        { text: 'done' },
      ],
      { ...tsProject(), 'src/a.ts': "export const a: number = 'x';\nexport const b = 1;\n" },
    );
    const ran = await run(['--permission-mode', 'yolo', '--sandbox', 'off', 'change b']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(result(3)).toContain('Edited src/a.ts');
    expect(result(3)).toContain('typescript-language-server: this edit introduced 1 problem:');
    expect(result(3)).toMatch(/src\/a\.ts:2:14 error TS2322/);
    expect(result(3)).not.toContain('src/a.ts:1:');
  });

  it('Python (pyright): definition across files, hover, outline, references, rename', { timeout: 240_000 }, async () => {
    const { read, result, run } = await setup(
      [
        nav({ operation: 'definition', path: 'app.py', symbol: 'greet', line: 3 }),
        nav({ operation: 'hover', path: 'app.py', symbol: 'greet', line: 3 }),
        nav({ operation: 'symbols', path: 'lib.py' }),
        nav({ operation: 'references', path: 'lib.py', symbol: 'greet' }),
        nav({ operation: 'rename', path: 'lib.py', symbol: 'greet', new_name: 'welcome' }),
        { text: 'done' },
      ],
      {
        'lib.py': 'def greet(name: str) -> str:\n    return "hi " + name\n\n\nclass Greeter:\n    def greet(self, name: str) -> str:\n        return greet(name)\n',
        'app.py': 'from lib import greet\n\nprint(greet("you"))\n',
      },
    );
    const ran = await run(['--permission-mode', 'yolo', '--sandbox', 'off', 'look around']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(result(1)).toContain('lib.py:1:5: def greet(name: str) -> str:');
    expect(result(2)).toContain('def greet(name: str) -> str');
    expect(result(3)).toMatch(/^function greet {2}1:5\n {2}variable name {2}1:11\nclass Greeter {2}5:7\n {2}method greet {2}6:9$/m);
    // The module function's uses, not the method of the same name.
    expect(result(4)).toContain('app.py:3:7: print(greet("you"))');
    expect(result(4)).toContain('lib.py:7:16: return greet(name)');
    expect(result(4)).not.toContain('lib.py:6:');
    // The rename follows the same uses, in both files: the method of the same name is left as it was.
    expect(result(5)).toContain('Renamed greet to welcome: 2 files changed.');
    expect(read('lib.py')).toBe('def welcome(name: str) -> str:\n    return "hi " + name\n\n\nclass Greeter:\n    def greet(self, name: str) -> str:\n        return welcome(name)\n');
    expect(read('app.py')).toBe('from lib import welcome\n\nprint(welcome("you"))\n');
  });

  it('a server that hangs, one that crashes and a missing one each give the model a clear error; the run goes on', { timeout: 120_000 }, async () => {
    // The hanging server's limit is the one under test; the crashing one must answer initialize first,
    // which a loaded machine can take seconds to do, so its limit is far from anything it waits for.
    const fake = (mode: string, extension: string, timeout: number) => ({ command: process.execPath, args: [FAKE_SERVER, mode], extensions: [extension], timeout });
    const { home, result, run } = await setup(
      [
        nav({ operation: 'hover', path: 'a.hang', symbol: 'x' }),
        nav({ operation: 'hover', path: 'b.crash', symbol: 'x' }),
        nav({ operation: 'hover', path: 'b.crash', symbol: 'x' }),
        nav({ operation: 'hover', path: 'c.nothing', symbol: 'x' }),
        { text: 'still here' },
      ],
      { 'a.hang': 'x\n', 'b.crash': 'x\n', 'c.nothing': 'x\n' },
    );
    mkdirSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent'), { recursive: true });
    writeFileSync(join(home.env.XDG_CONFIG_HOME, 'vibe-agent', 'config.json'), JSON.stringify({ lspServers: { hanging: fake('hang', '.hang', 2), crashing: fake('crash', '.crash', 60), absent: { command: 'no-such-language-server', extensions: ['.nothing'] } } }));
    const ran = await run(['--permission-mode', 'yolo', 'try it']);
    expect(ran.code, ran.stderr).toBe(0);
    expect(ran.stdout).toContain('still here');
    expect(result(1)).toContain('code_nav hover failed: hanging');
    expect(result(1)).toContain('did not answer initialize within 2 s');
    // Crashed, restarted once, crashed again: reported with what it said; the next call is refused at once.
    expect(result(2)).toContain('crashing stopped (exit code 3); it said: fake-server: boom');
    expect(result(3)).toContain('it had been restarted once already');
    expect(result(4)).toContain('no language server answers for c.nothing');
  });

  it("a server from the workspace's node_modules/.bin is not started unapproved without a terminal; --trust-project-mcp starts it", { timeout: 240_000 }, async () => {
    const files = { ...tsProject() };
    // No typescript-language-server on PATH (npm puts node_modules/.bin there), so the workspace's copy is the only one.
    const PATH = [dirname(process.execPath), '/usr/bin', '/bin'].join(':');
    const script = () => [{ text: 'ok' }, { text: 'ok' }];
    const untrusted = await setup(script(), files);
    mkdirSync(join(untrusted.home.workspace, 'node_modules', '.bin'), { recursive: true });
    symlinkSync(join(BIN, 'typescript-language-server'), join(untrusted.home.workspace, 'node_modules', '.bin', 'typescript-language-server'));
    const refused = await untrusted.run(['hello'], { PATH });
    expect(refused.code, refused.stderr).toBe(0);
    expect(refused.stderr).toContain('language server typescript-language-server');
    expect(refused.stderr).toContain('not approved for this workspace');
    expect(untrusted.server.requests[0]!.tools!.map((tool) => tool.function.name)).not.toContain('code_nav');

    const trusted = await untrusted.run(['--trust-project-mcp', 'hello'], { PATH });
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(untrusted.server.requests.at(-1)!.tools!.map((tool) => tool.function.name)).toContain('code_nav');
  });

  it('a missing server: `vibe-agent lsp` and code_nav name it and the command that installs it', { timeout: 120_000 }, async () => {
    const { home, result, run } = await setup([nav({ operation: 'hover', path: 'app.js', symbol: 'sum' }), { text: 'done' }], { 'app.js': 'export const sum = 1;\n', 'lib.py': 'x = 1\n' });
    // Pyright alone on PATH (a folder with a link to it): typescript-language-server is absent.
    const bin = join(home.root, 'bin');
    mkdirSync(bin);
    symlinkSync(join(BIN, 'pyright-langserver'), join(bin, 'pyright-langserver'));
    const PATH = [bin, dirname(process.execPath), '/usr/bin', '/bin'].join(':');
    const listed = await run(['lsp'], { PATH });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain('typescript-language-server (TypeScript/JavaScript, built-in): not found — typescript-language-server is neither in node_modules/.bin nor on PATH; install it with: npm install -g typescript-language-server typescript');
    expect(listed.stdout).toContain("No language server for this workspace's .js files, so code_nav is off for them: install typescript-language-server with: npm install -g typescript-language-server typescript");
    expect(listed.stdout).toContain(`pyright (Python, built-in): ${join(bin, 'pyright-langserver')} — used`);
    expect(listed.stdout).not.toContain('.py files, so code_nav is off');

    const ran = await run(['--permission-mode', 'yolo', 'where is sum'], { PATH });
    expect(ran.code, ran.stderr).toBe(0);
    expect(result(1)).toContain('code_nav hover failed: no language server answers for app.js; found: pyright (.py .pyi). If it is not installed, install typescript-language-server for TypeScript/JavaScript files: npm install -g typescript-language-server typescript');
  });

  it('`vibe-agent lsp` lists what was found for this workspace and why the others are not used', { timeout: 60_000 }, async () => {
    const { run } = await setup([], { 'src/a.ts': 'export const a = 1;\n' });
    const listed = await run(['lsp'], { PATH: `${BIN}:${[dirname(process.execPath), '/usr/bin', '/bin'].join(':')}` });
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toContain(`typescript-language-server (TypeScript/JavaScript, built-in): ${join(BIN, 'typescript-language-server')} — used`);
    expect(listed.stdout).toContain('pyright (Python, built-in): found at');
    expect(listed.stdout).toContain('not used — no .py .pyi files in this workspace');
    expect(listed.stdout).toContain('basedpyright (Python, built-in): not found — basedpyright-langserver is neither in node_modules/.bin nor on PATH');
  });
});
