import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parsePlainMapping } from '../src/skills/plain-yaml.js';
import { parseFrontMatter } from '../src/skills/front-matter.js';

// Values that are plain one-line text or numbers in some spellings and something else in others.
const VALUES = [
  'Reviews a diff for bugs', "Don't stop", 'say "hi" to them', 'Read, Grep, Glob', 'a: b', 'a:b', 'http://x.org/a#b', 'ends with:', 'x # comment', 'x#y',
  'true', 'False', 'null', 'Null', '~', 'yes', 'No', 'on', 'y', 'n', '12', '-3', '0', '-0', '007', '1.5', '1.50', '.5', '1e3', '0x1F', '0o7', '.inf', '-.inf', '.nan',
  '123456789012345', '12345678901234567890', '3.14159265358979', 'a [b]', 'a {b}', '[a, b]', '{a: 1}', '"quoted"', "'single'", '- item', '? key', '&anchor x', '*alias',
  '!tag x', '|', '>', '%x', '@x', '`x`', 'x  ', 'tab\there', 'émoji ✓ text', 'a | b', 'a > b', 'a & b', 'a * b', 'a ! b', 'a % b', 'a @ b', 'multi word text with, commas.',
];
const KEYS = ['name', 'description', 'allowed-tools', 'max-turns', 'model', '_private', 'null', 'true', '__proto__', 'Key_2', 'a-b-c', '<<'];

function yamlData(text: string): unknown {
  try {
    return parse(text);
  } catch {
    return 'error';
  }
}

describe('parsePlainMapping: the yaml package\'s result for plain front matter, or undefined', () => {
  it('agrees with the yaml package on every mapping it accepts (every key and value spelling above)', () => {
    let accepted = 0;
    for (const key of KEYS) {
      for (const value of VALUES) {
        const text = `${key}: ${value}\nother: text\n`;
        const plain = parsePlainMapping(text);
        if (plain === undefined) continue;
        accepted++;
        expect(plain, text).toEqual(yamlData(text));
      }
    }
    expect(accepted).toBeGreaterThan(100);
  });

  it('accepts what skills, commands and agents usually carry', () => {
    const text = '# a comment line\nname: code-review\ndescription: Reviews the staged diff for bugs, style and missing tests.\n\nallowed-tools: Read, Grep, Bash(git diff *)\nmax-turns: 12\nmax-cost: 0.5\n';
    expect(parsePlainMapping(text)).toEqual(parse(text));
    expect(parsePlainMapping(text)).toMatchObject({ name: 'code-review', 'max-turns': 12, 'max-cost': 0.5 });
  });

  it('leaves the rest to the yaml package: lists, quotes, nesting, continuations, duplicates, booleans, CRLF', () => {
    for (const text of ['tools:\n  - read\n  - grep\n', 'name: "x"\n', 'a:\n  b: c\n', 'description: one\n  two\n', 'a: x\na: y\n', 'user-invocable: false\n', 'a: x\r\nb: y\r\n', 'a: x # note\n', '', '\n\n', 'just text\n', '  indented: x\n']) {
      expect(parsePlainMapping(text), JSON.stringify(text)).toBeUndefined();
    }
  });

  it('parseFrontMatter gives the same data, body and lines on either path', () => {
    const plain = parseFrontMatter('---\nname: a\ndescription: b c\n---\nBody\n');
    expect(plain).toEqual({ ok: true, data: { name: 'a', description: 'b c' }, body: 'Body\n', bodyLine: 5 });
    const viaPackage = parseFrontMatter('---\nname: "a"\ndescription: [b, c]\n---\nBody\n');
    expect(viaPackage).toEqual({ ok: true, data: { name: 'a', description: ['b', 'c'] }, body: 'Body\n', bodyLine: 5 });
    expect(parseFrontMatter('---\nname: [a\n---\nBody\n')).toMatchObject({ ok: false, line: 2 });
  });
});
