import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { InputEditor } from '../src/cli/tui/input-editor.js';
import { historyPath, InputHistory } from '../src/cli/tui/input-history.js';
import { KeyParser, type Key } from '../src/cli/tui/key-parser.js';
import { completeSlash, parseSlashCommand } from '../src/cli/tui/slash-commands.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Feeds raw terminal bytes through the parser into the editor; returns what was submitted. */
function type(editor: InputEditor, ...chunks: string[]): string[] {
  const parser = new KeyParser();
  const submitted: string[] = [];
  for (const chunk of chunks) {
    for (const key of parser.feed(chunk)) {
      const action = editor.handle(key);
      if (action.type === 'submit') submitted.push(action.text);
    }
  }
  return submitted;
}

describe('KeyParser', () => {
  it('decodes text, control keys, arrows with modifiers and Alt as an ESC prefix', () => {
    const keys = new KeyParser().feed('a\x03\x04\t\x7f\x1b[A\x1b[1;5C\x1bOH\x1b[3~\x1bb\x1b\x1b');
    expect(keys).toEqual<Key[]>([
      { name: 'char', text: 'a' },
      { name: 'c', ctrl: true },
      { name: 'd', ctrl: true },
      { name: 'tab' },
      { name: 'backspace' },
      { name: 'up' },
      { name: 'right', ctrl: true },
      { name: 'home' },
      { name: 'delete' },
      { name: 'char', text: 'b', meta: true },
      { name: 'escape' },
    ]);
  });

  it('holds a sequence cut at a chunk boundary until the rest arrives; a lone ESC is Escape once flushed', () => {
    const parser = new KeyParser();
    expect(parser.feed('x\x1b[1;')).toEqual([{ name: 'char', text: 'x' }]);
    expect(parser.pending).toBe(true);
    expect(parser.feed('5D')).toEqual([{ name: 'left', ctrl: true }]);
    expect(parser.feed('\x1b')).toEqual([]);
    expect(parser.flush()).toEqual([{ name: 'escape' }]);
    expect(parser.pending).toBe(false);
    expect(parser.feed('\x1b')).toEqual([]);
    expect(parser.feed('[B')).toEqual([{ name: 'down' }]);
  });

  it('sees Shift+Enter in the forms terminals send (kitty CSI u, modifyOtherKeys) and Alt+Enter', () => {
    const keys = new KeyParser().feed('\x1b[13;2u\x1b[27;2;13~\x1b\r\r\n');
    expect(keys).toEqual<Key[]>([
      { name: 'return', shift: true },
      { name: 'return', shift: true },
      { name: 'return', meta: true },
      { name: 'return' },
      { name: 'enter', ctrl: true },
    ]);
  });

  it('returns a bracketed paste as one key, even when it spans chunks', () => {
    const parser = new KeyParser();
    expect(parser.feed('x\x1b[200~line 1\r\nli')).toEqual([{ name: 'char', text: 'x' }]);
    expect(parser.feed('ne 2\x1b[201~y')).toEqual([{ name: 'paste', text: 'line 1\r\nline 2' }, { name: 'char', text: 'y' }]);
  });
});

describe('InputEditor', () => {
  it('submits on Enter and adds lines with Shift+Enter, Alt+Enter, Ctrl+J or a trailing backslash', () => {
    const editor = new InputEditor();
    expect(type(editor, 'one\x1b[13;2utwo\x1b\rthree\nfour\\', '\r', 'five')).toEqual([]);
    expect(editor.text).toBe('one\ntwo\nthree\nfour\nfive');
    expect(type(editor, '\r')).toEqual(['one\ntwo\nthree\nfour\nfive']);
    expect(editor.text).toBe('');
  });

  it('never submits on the newlines of a paste', () => {
    const editor = new InputEditor();
    expect(type(editor, '\x1b[200~first\r\nsecond\r\n\x1b[201~')).toEqual([]);
    expect(editor.text).toBe('first\nsecond\n');
    expect(type(editor, '\r')).toEqual(['first\nsecond']);
  });

  it('edits: cursor moves, backspace over emoji, Ctrl-U, Ctrl-W, Ctrl-K, Home and End', () => {
    const editor = new InputEditor();
    type(editor, 'hello world', '\x1b[D\x1b[D\x1b[D\x1b[D\x1b[D', '\x0b');
    expect(editor.text).toBe('hello ');
    type(editor, '😀', '\x7f', 'there', '\x17');
    expect(editor.text).toBe('hello ');
    type(editor, '\x1b[H', '>', '\x1b[F', '!');
    expect(editor.text).toBe('>hello !');
    type(editor, '\x15');
    expect(editor.text).toBe('');
  });

  it('walks the history with Up and Down past the first and last line, keeping the draft', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vibe-history-'));
    dirs.push(dir);
    const path = join(dir, 'h.jsonl');
    const history = new InputHistory(path);
    const editor = new InputEditor(history);
    type(editor, 'first\r', 'second\x1b\rline\r', 'draft');
    type(editor, '\x1b[A');
    expect(editor.text).toBe('second\nline');
    type(editor, '\x1b[A'); // moves from line 2 to line 1 first
    type(editor, '\x1b[A');
    expect(editor.text).toBe('first');
    type(editor, '\x1b[B');
    expect(editor.text).toBe('second\nline');
    type(editor, '\x1b[B', '\x1b[B');
    expect(editor.text).toBe('draft');

    // Persisted: a new session in the same workspace sees the same entries.
    expect(new InputHistory(path).entries).toEqual(['first', 'second\nline']);
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('keeps history per workspace under $XDG_DATA_HOME/vibe-agent/history', () => {
    const a = historyPath('/work/project', { XDG_DATA_HOME: '/data' });
    expect(a).toMatch(/^\/data\/vibe-agent\/history\/project-[0-9a-f]{10}\.jsonl$/);
    expect(historyPath('/other/project', { XDG_DATA_HOME: '/data' })).not.toBe(a);
    expect(historyPath('/work/project', { HOME: '/home/u' } as NodeJS.ProcessEnv)).toMatch(/\.local\/share\/vibe-agent\/history\//);
  });

  it('skips a torn line in the history file instead of failing', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vibe-history-'));
    dirs.push(dir);
    const path = join(dir, 'h.jsonl');
    new InputHistory(path).add('kept');
    appendFileSync(path, '{"text":"tor'); // a crash mid-append leaves half a line
    expect(new InputHistory(path).entries).toEqual(['kept']);
  });

  it('lays out long and multi-line input wrapped to the width, with the cursor where it belongs', () => {
    const editor = new InputEditor();
    type(editor, 'abcdefgh\x1b\rxy');
    expect(editor.layout(6, '> ', 2)).toEqual({ rows: ['> abcd', '  efgh', '  xy'], cursor: { row: 2, col: 4 } });
    type(editor, '\x1b[A');
    expect(editor.layout(6, '> ', 2).cursor).toEqual({ row: 0, col: 4 });
  });
});

describe('slash commands', () => {
  it('parses a command and its argument', () => {
    expect(parseSlashCommand('/model  gpt-4.1 ')).toEqual({ name: 'model', argument: 'gpt-4.1' });
    expect(parseSlashCommand('hello')).toBeUndefined();
  });

  it('completes names with Tab: one match fully, several to their common prefix', () => {
    expect(completeSlash('/he')).toEqual({ text: '/help ', candidates: [] });
    expect(completeSlash('/c')).toEqual({ text: '/c', candidates: ['/compact', '/clear', '/cost'] });
    expect(completeSlash('/co')).toEqual({ text: '/co', candidates: ['/compact', '/cost'] });
    expect(completeSlash('/model gpt-4', ['gpt-4.1', 'gpt-4.1-mini'])).toEqual({ text: '/model gpt-4.1', candidates: ['gpt-4.1', 'gpt-4.1-mini'] });
    expect(completeSlash('plain text')).toEqual({ text: 'plain text', candidates: [] });
  });
});
