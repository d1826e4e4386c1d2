import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isGlobMention, mentionFor, parseMentions } from '../src/mentions/parse-mentions.js';

const paths = (prompt: string) => parseMentions(prompt).map((mention) => mention.path);

describe('parseMentions', () => {
  it('finds paths at the start, after spaces and brackets', () => {
    expect(paths('@src/a.ts explain')).toEqual(['src/a.ts']);
    expect(paths('compare @a.ts with @b/c.md\nand (@d.ts)')).toEqual(['a.ts', 'b/c.md', 'd.ts']);
    expect(paths('the folder @src/ and the glob @src/**/*.test.ts')).toEqual(['src/', 'src/**/*.test.ts']);
  });

  it('leaves e-mail addresses, escaped @ and a lone @ as text', () => {
    expect(paths('mail me@example.com or a@b')).toEqual([]);
    expect(paths('not \\@src/a.ts, nor @ alone, nor @@x')).toEqual([]);
  });

  it('drops the sentence punctuation after a path', () => {
    expect(paths('see @src/a.ts.')).toEqual(['src/a.ts']);
    expect(paths('is it @a.ts? or @b.ts!, (@c.ts), "@d.ts"; @e.ts:')).toEqual(['a.ts', 'b.ts', 'c.ts', 'e.ts']);
    expect(paths('@.')).toEqual([]);
  });

  it('takes quoted paths with spaces and escapes, and backslash-escaped spaces', () => {
    expect(paths('read @"my file.md" now')).toEqual(['my file.md']);
    expect(paths('@"say \\"hi\\".txt" and @"back\\\\slash"')).toEqual(['say "hi".txt', 'back\\slash']);
    expect(paths('read @my\\ file.md now')).toEqual(['my file.md']);
    expect(paths('unclosed @"my file.md and on')).toEqual([]);
    expect(paths('@""')).toEqual([]);
  });

  it('gives where each mention stands, so the text around it is the user\'s own', () => {
    const prompt = 'a @"b c" d @e.ts.';
    const [first, second] = parseMentions(prompt);
    expect(prompt.slice(first!.start, first!.end)).toBe('@"b c"');
    expect(prompt.slice(second!.start, second!.end)).toBe('@e.ts');
  });

  it('tells globs by their form', () => {
    expect(isGlobMention('src/**/*.ts')).toBe(true);
    expect(isGlobMention('src/a.ts')).toBe(false);
  });
});

const pathChar = fc.constantFrom(...'abcXYZ019._-/ "\\@,.;:!?()*'.split(''));
const path = fc.array(pathChar, { minLength: 1, maxLength: 20 }).map((chars) => chars.join(''));
const word = fc.array(fc.constantFrom(...'abc.,;:!?x'.split('')), { minLength: 1, maxLength: 8 }).map((chars) => chars.join(''));

describe('parseMentions, properties', () => {
  it('a path written with mentionFor parses back whole, among other words', () => {
    fc.assert(
      fc.property(path, word, word, (p, before, after) => {
        const prompt = `${before} ${mentionFor(p)} ${after}`;
        expect(paths(prompt)).toEqual([p]);
      }),
    );
  });

  it('never throws, and its mentions lie in order inside the prompt, each starting with @', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (prompt) => {
        let last = 0;
        for (const mention of parseMentions(prompt)) {
          expect(mention.start).toBeGreaterThanOrEqual(last);
          expect(mention.end).toBeLessThanOrEqual(prompt.length);
          expect(prompt[mention.start]).toBe('@');
          expect(mention.path).not.toBe('');
          last = mention.end;
        }
      }),
    );
  });

  it('an @ right after a letter or digit (an e-mail address) is never a mention', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9.]{1,10}$/), fc.stringMatching(/^[a-z0-9.]{1,10}$/), (user, domain) => {
        expect(paths(`write to ${user}@${domain} today`)).toEqual([]);
      }),
    );
  });
});
