/**
 * `vibe-agent rewind` by prompt: without --to it goes back to before the last prompt (all of that
 * prompt's tool turns), `--list` shows each prompt with its time and the files its run changed, and
 * `--to N` uses the same numbers. A file nobody captured (the user's) is never deleted.
 */
import { writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useChatCli } from './support/chat-cli.js';

const setup = useChatCli(['--sandbox', 'off']);

const bash = (command: string) => ({ toolCalls: [{ name: 'bash', arguments: { command } }] });
const userTexts = (body: { messages: Array<{ role: string; content?: unknown }> }) => body.messages.filter((m) => m.role === 'user').map((m) => m.content);
const TIME = '\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d';

describe('rewind by prompt', () => {
  it('goes back to before the last prompt, every tool turn of it; --list shows prompts, times and files; --to N uses those numbers', async () => {
    const { server, file, read, run } = await setup([
      bash('printf one > a.txt'),
      bash('printf b > b.txt'),
      { text: 'one done' },
      bash('printf two > a.txt'),
      bash('printf c > c.txt'),
      bash('echo checked'), // the last turn changes nothing: undoing only it restored nothing
      { text: 'two done' },
      { text: 'fresh' },
    ]);
    writeFileSync(file('a.txt'), 'start');
    expect((await run(['--yes', 'first task'])).code).toBe(0);
    expect((await run(['--yes', '--continue', 'second task\nwith a second line that is not shown'])).code).toBe(0);
    writeFileSync(file('mine.txt'), 'the user wrote this after the agent');
    expect([read('a.txt'), read('b.txt'), read('c.txt')]).toEqual(['two', 'b', 'c']);

    const listed = await run(['rewind', '--list']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`^ {4}1 {2}${TIME} {2}"first task" · changed a\\.txt, b\\.txt\\n {4}2 {2}${TIME} {2}"second task" · changed a\\.txt, c\\.txt\\n$`));

    const rewound = await run(['rewind']);
    expect(rewound.code, rewound.stderr).toBe(0);
    expect(rewound.stdout).toContain('Rewound to point 2, before the prompt "second task".');
    expect(rewound.stdout).toContain('Files: 1 restored, 1 removed: a.txt, c.txt.');
    expect(rewound.stdout).toContain('Left alone: 1 file: mine.txt (not made by the agent).');
    expect([read('a.txt'), read('b.txt'), read('c.txt'), read('mine.txt')]).toEqual(['one', 'b', undefined, 'the user wrote this after the agent']);
    expect(rewound.stdout).toContain('Undo this rewind with: vibe-agent rewind --to 3');

    const after = await run(['rewind', '--list']);
    expect(after.stdout).toMatch(/ {4}2 .*"second task" \(rewound\) · changed a\.txt, c\.txt\n {4}3 .*before a rewind \(going here undoes it\) · changed a\.txt, c\.txt\n$/);

    // The conversation continues from before the second prompt.
    expect((await run(['--continue', 'third task'])).code).toBe(0);
    expect(userTexts(server.requests.at(-1)!)).toEqual(['first task', 'third task']);

    const first = await run(['rewind', '--to', '1']);
    expect(first.code, first.stderr).toBe(0);
    expect([read('a.txt'), read('b.txt'), read('c.txt'), read('mine.txt')]).toEqual(['start', undefined, undefined, 'the user wrote this after the agent']);
    expect((await run(['rewind', '--to', '9'])).stderr).toContain('This session has rewind points 1 to 5; there is no 9.');
  });

  it('a last prompt that ran no tools: the conversation goes back before it, the files stay as they are', async () => {
    const { server, read, run } = await setup([bash('printf one > a.txt'), { text: 'one done' }, { text: 'an answer' }, { text: 'fresh' }]);
    expect((await run(['--yes', 'first task'])).code).toBe(0);
    expect((await run(['--continue', 'just a question'])).code).toBe(0);
    expect((await run(['rewind', '--list'])).stdout).toMatch(/ {4}2 {2}— {20}"just a question" · ran no tools\n$/);

    const rewound = await run(['rewind']);
    expect(rewound.code, rewound.stderr).toBe(0);
    expect(rewound.stdout).toContain('Files: none changed since, so none was touched.');
    expect(read('a.txt')).toBe('one');
    expect((await run(['--continue', 'again'])).code).toBe(0);
    expect(userTexts(server.requests.at(-1)!)).toEqual(['first task', 'again']);
  });
});
