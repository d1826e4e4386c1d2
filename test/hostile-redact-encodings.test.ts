/** Issue 19, class 10: a secret spelt with JSON escapes is redacted after decoding, in the session file too. */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { createRedactor } from '../src/session/redact.js';
import { createSession } from '../src/session/session-store.js';
import { tempLayouts } from './support/security-setup.js';

const setup = tempLayouts();
const KEY = 'sk-live-0123456789abcdef/xyz';
const escapeAll = (text: string) => [...text].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

const SPELLINGS: Record<string, string> = {
  'one \\u002d': JSON.stringify({ command: `curl -H "x: ${KEY}"` }).replace('sk-', 'sk\\u002d'),
  'upper-case hex': JSON.stringify({ key: KEY }).replace('-live', '\\u002Dlive'),
  'every character escaped': `{"key":"${escapeAll(KEY)}"}`,
  'escaped slash': JSON.stringify({ key: KEY }).replace('/', '\\/'),
  'JSON inside a JSON string': JSON.stringify({ content: JSON.stringify({ key: KEY }).replace('-', '\\u002d') }),
  'cut off mid-string': `{"command":"echo ${escapeAll(KEY)}`,
  'invalid JSON around it': `{command: "${escapeAll(KEY)}", oops`,
};

describe('redaction sees through JSON escapes', () => {
  const redact = createRedactor([KEY]);

  it('no spelling of the key survives, and the text stays the JSON it was', () => {
    for (const [name, text] of Object.entries(SPELLINGS)) {
      const out = redact(text);
      expect(out, name).toContain('[redacted]');
      expect(decodedStrings(out), name).not.toContain(KEY);
      if (isJson(text)) expect(isJson(out), name).toBe(true);
    }
  });

  it('leaves escaped text without a secret exactly as it was', () => {
    for (const text of ['{"a":"line\\nbreak \\u00e9"}', '"unterminated \\', '{"x":"\\ud800"}', 'plain \\ text "with \\"quotes\\""']) expect(redact(text)).toBe(text);
  });

  it('the session file never holds the key, whichever spelling the model sent in its call arguments', () => {
    const { workspace, root } = setup();
    const session = createSession({ workspace, env: { XDG_DATA_HOME: root }, redact });
    Object.values(SPELLINGS).forEach((args, index) =>
      session.writer.append({ type: 'assistant_message', message: { role: 'assistant', content: '', toolCalls: [{ id: `c${index}`, name: 'bash', arguments: args }] } } as never),
    );
    session.close();
    const stored = readFileSync(session.path, 'utf8');
    expect(decodedStrings(stored)).not.toContain(KEY);
    expect(stored.match(/\[redacted\]/g)?.length).toBeGreaterThanOrEqual(Object.keys(SPELLINGS).length);
  });
});

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Every string literal in the text, decoded again and again: what a reader of the file could recover. */
function decodedStrings(text: string): string {
  let out = text;
  for (let round = 0; round < 4; round++) out = out.replace(/\\u([0-9a-fA-F]{4})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))).replace(/\\(.)/g, '$1');
  return out;
}
