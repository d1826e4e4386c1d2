import { existsSync, lstatSync, mkdirSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useChatCli } from './support/chat-cli.js';

const setup = useChatCli();

const bash = (command: string) => ({ toolCalls: [{ name: 'bash', arguments: { command } }] });
const write = (path: string, content: string) => ({ toolCalls: [{ name: 'write_file', arguments: { path, content } }] });
const userTexts = (body: { messages: Array<{ role: string; content?: unknown }> }) => body.messages.filter((m) => m.role === 'user').map((m) => m.content);

describe('checkpoints and rewind from the CLI', () => {
  it('undoes a file tool and a shell command alike: edits, a `rm`, a created file; the conversation goes back too; the rewind is undoable', async () => {
    const { server, file, read, run } = await setup([
      write('src/new.txt', 'created by the agent\n'),
      bash('rm keep.txt && printf two > a.txt'),
      { text: 'done' },
      { text: 'fresh start' },
    ]);
    writeFileSync(file('a.txt'), 'one');
    writeFileSync(file('keep.txt'), 'keep me');
    writeFileSync(file('.gitignore'), 'build/\n');
    mkdirSync(file('build'));
    writeFileSync(file('build/out.bin'), 'ignored');

    expect((await run(['--permission-mode', 'yolo', 'change things'])).code).toBe(0);
    expect([read('a.txt'), read('keep.txt'), read('src/new.txt')]).toEqual(['two', undefined, 'created by the agent\n']);

    const listed = await run(['rewind', '--list']);
    expect(listed.stdout).toMatch(/^ {4}1 {2}\d{4}-\d\d-\d\d \d\d:\d\d:\d\d {2}"change things" · changed a\.txt, keep\.txt, src\/new\.txt\n$/);

    const rewound = await run(['rewind', '--to', '1']);
    expect(rewound.stderr).toBe('');
    expect(rewound.code).toBe(0);
    expect(rewound.stdout).toContain('Files: 2 restored, 1 removed');
    expect([read('a.txt'), read('keep.txt'), read('src/new.txt')]).toEqual(['one', 'keep me', undefined]);
    expect(existsSync(file('src'))).toBe(false);
    expect(read('build/out.bin')).toBe('ignored');

    // The conversation continues from before the first prompt: the model never sees it again.
    expect((await run(['--continue', 'start again'])).code).toBe(0);
    expect(userTexts(server.requests.at(-1)!)).toEqual(['start again']);

    const undo = /rewind --to (\d+)/.exec(rewound.stdout)![1]!;
    const undone = await run(['rewind', '--to', undo, '--files-only']);
    expect(undone.code).toBe(0);
    expect([read('a.txt'), read('keep.txt'), read('src/new.txt')]).toEqual(['two', undefined, 'created by the agent\n']);
  });

  it("does not silently overwrite a user's own change: lists it and needs --force without a terminal", async () => {
    const { read, file, run } = await setup([bash('printf agent > a.txt; printf agent > b.txt'), { text: 'done' }]);
    writeFileSync(file('a.txt'), 'original a');
    writeFileSync(file('b.txt'), 'original b');
    expect((await run(['--permission-mode', 'yolo', 'edit both'])).code).toBe(0);
    writeFileSync(file('b.txt'), 'the user changed this');

    const refused = await run(['rewind']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('changed after the agent left them');
    expect(refused.stderr).toContain('  b.txt\n');
    expect(refused.stderr).not.toContain('a.txt');
    expect([read('a.txt'), read('b.txt')]).toEqual(['agent', 'the user changed this']);

    const forced = await run(['rewind', '--force']);
    expect(forced.code).toBe(0);
    expect([read('a.txt'), read('b.txt')]).toEqual(['original a', 'original b']);
  });

  it('works after --continue: the last rewind undoes only the last prompt, files and conversation', async () => {
    const { server, read, file, run } = await setup([bash('printf first > a.txt'), { text: 'one done' }, bash('printf second > a.txt; touch extra.txt'), { text: 'two done' }, { text: 'ok' }]);
    writeFileSync(file('a.txt'), 'start');
    expect((await run(['--permission-mode', 'yolo', 'first task'])).code).toBe(0);
    expect((await run(['--permission-mode', 'yolo', '--continue', 'second task'])).code).toBe(0);
    expect([read('a.txt'), read('extra.txt')]).toEqual(['second', '']);

    const rewound = await run(['rewind']);
    expect(rewound.code).toBe(0);
    expect([read('a.txt'), read('extra.txt')]).toEqual(['first', undefined]);
    expect((await run(['--continue', 'third task'])).code).toBe(0);
    expect(userTexts(server.requests.at(-1)!)).toEqual(['first task', 'third task']);
  });

  it('only undoes the agent\'s own changes: a rewritten .gitignore, a file over the size limit, a nested repository, a folder swapped for a symlink', async () => {
    const script = [
      'printf "node_modules/\\n" > .gitignore',
      'printf small > big.bin',
      'printf made > made.txt',
      'rm -rf docs && ln -s src docs',
      'mkdir -p vendor/pkg && cd vendor/pkg && git init -q && git -c user.name=a -c user.email=a@a commit -q --allow-empty -m x',
    ].join(' && ');
    const { file, read, run } = await setup([bash(script), { text: 'done' }]);
    writeFileSync(file('.gitignore'), '*.log\n');
    writeFileSync(file('debug.log'), 'the user\'s ignored log');
    writeFileSync(file('big.bin'), Buffer.alloc(10 * 1024 * 1024 + 1, 1));
    mkdirSync(file('src'));
    mkdirSync(file('docs'));
    writeFileSync(file('docs/guide.md'), 'the guide');
    expect((await run(['--permission-mode', 'yolo', 'rearrange'])).code).toBe(0);
    expect(read('made.txt')).toBe('made');

    const rewound = await run(['rewind']);
    expect(rewound.stderr).toBe('');
    expect(rewound.code).toBe(0);
    expect(rewound.stdout).toContain('Files: 2 restored, 2 removed');
    expect(rewound.stdout).toContain('Left alone: 3 files: big.bin (over the size limit), debug.log (ignored when captured), vendor/pkg (nested repository).');
    expect([read('.gitignore'), read('debug.log'), read('big.bin'), read('made.txt'), read('docs/guide.md')]).toEqual(['*.log\n', "the user's ignored log", 'small', undefined, 'the guide']);
    expect(existsSync(file('vendor/pkg/.git'))).toBe(true);

    // Undoing the rewind puts the agent's work back, the symlink included; the user's files stay.
    const undone = await run(['rewind', '--to', /rewind --to (\d+)/.exec(rewound.stdout)![1]!, '--files-only']);
    expect(undone.stderr).toBe('');
    expect([read('.gitignore'), read('debug.log'), read('made.txt'), read('docs/guide.md')]).toEqual(['node_modules/\n', "the user's ignored log", 'made', undefined]);
    expect(lstatSync(file('docs')).isSymbolicLink()).toBe(true);
  });
});
