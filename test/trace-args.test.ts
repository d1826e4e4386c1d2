import { describe, expect, it } from 'vitest';
import { parseCliArgs } from '../src/cli/parse-command-line.js';
import { UsageError } from '../src/cli/args/cli-args.js';

describe('vibe-agent trace arguments', () => {
  it('takes an optional session (id or file) and its flags', () => {
    expect(parseCliArgs(['trace'])).toMatchObject({ command: 'trace', trace: { noOpen: false } });
    expect(parseCliArgs(['trace', '20261203-1204', '--no-open'])).toMatchObject({ command: 'trace', trace: { session: '20261203-1204', noOpen: true } });
    expect(parseCliArgs(['trace', 'run.jsonl', '--html', 'out.html'])).toMatchObject({ command: 'trace', trace: { session: 'run.jsonl', html: 'out.html' } });
    expect(parseCliArgs(['trace', '--context-window', '4096'])).toMatchObject({ command: 'trace', contextWindow: 4096 });
  });

  it('refuses a word that is not a session (quoted, it is a prompt) and trace flags elsewhere', () => {
    expect(() => parseCliArgs(['trace', 'bugs'])).toThrow('"bugs" is not a session');
    expect(() => parseCliArgs(['trace', 'the', 'slow', 'request'])).toThrow('"vibe-agent trace" takes at most 1 word (got "the slow request")');
    expect(parseCliArgs(['trace the slow request'])).toMatchObject({ command: 'run', prompt: 'trace the slow request' });
    expect(() => parseCliArgs(['fix it', '--no-open'])).toThrow(UsageError);
    expect(() => parseCliArgs(['fix it', '--no-open'])).toThrow('--no-open only applies to "vibe-agent trace"');
    expect(() => parseCliArgs(['trace', '--html', 'a.html', '--no-open'])).toThrow(/--no-open goes with serving/);
    expect(() => parseCliArgs(['trace', 'a.jsonl', 'b.jsonl', '--no-open'])).toThrow(/takes at most 1 word/);
  });
});
