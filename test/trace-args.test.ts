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

  it('leaves a prompt that starts with "trace" a prompt, and refuses trace flags elsewhere', () => {
    expect(parseCliArgs(['trace', 'the', 'slow', 'request'])).toMatchObject({ command: 'run', prompt: 'trace the slow request' });
    expect(parseCliArgs(['trace', 'bugs'])).toMatchObject({ command: 'run', prompt: 'trace bugs' });
    expect(() => parseCliArgs(['fix it', '--no-open'])).toThrow(UsageError);
    expect(() => parseCliArgs(['trace', '--html', 'a.html', '--no-open'])).toThrow(/--no-open goes with serving/);
    expect(() => parseCliArgs(['trace', 'a.jsonl', 'b.jsonl', '--no-open'])).toThrow(/takes one session/);
  });
});
