/**
 * Issue 41 point 5: a resumed conversation is drawn again — each prompt, the answers, each tool call
 * folded as the session showed it (✓ / ✗ / ⊘ from how it ended) — instead of a blank screen.
 */
import { describe, expect, it } from 'vitest';
import { createTheme } from '../src/cli/display/theme.js';
import { earlierTurnLines } from '../src/cli/tui/earlier-turns.js';
import type { Message } from '../src/contracts/messages.js';

const plain = createTheme(false);

describe('the earlier turns of a resumed conversation', () => {
  it('draws prompts, answers and folded tool calls, not the system prompt', () => {
    const messages: Message[] = [
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'run the tests' },
      { role: 'assistant', content: 'Running them.', toolCalls: [{ id: 'c1', name: 'bash', arguments: '{"command":"npm test"}' }] },
      { role: 'tool', toolCallId: 'c1', name: 'bash', content: 'line 1\nline 2\nline 3\nline 4\nline 5\nnot ok 1 - sum adds\nexit code: 1', isError: true },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c2', name: 'write_file', arguments: '{"path":"a.txt","content":"x"}' }] },
      { role: 'tool', toolCallId: 'c2', name: 'write_file', content: 'Denied: the user declined this call.', isError: true },
      { role: 'assistant', content: 'The test **fails**:\n\n- sum subtracts', toolCalls: [] },
    ];
    expect(earlierTurnLines(messages, plain, 80)).toEqual([
      '',
      '› run the tests',
      '',
      'Running them.',
      '✗ bash command="npm test"',
      '  … 2 earlier lines',
      '  │ line 3',
      '  │ line 4',
      '  │ line 5',
      '  │ not ok 1 - sum adds',
      '  │ exit code: 1',
      '⊘ write_file path="a.txt" content="x"',
      '  │ Denied: the user declined this call.',
      'The test fails:',
      '',
      '• sum subtracts',
    ]);
  });

  it('folds a long prompt (a paste) to its first lines', () => {
    const lines = earlierTurnLines([{ role: 'user', content: Array.from({ length: 40 }, (_, i) => `row ${i + 1}`).join('\n') }], plain, 80);
    expect(lines).toEqual(['', '› row 1', '  row 2', '  row 3', '  row 4', '  row 5', '  row 6', '  … 34 more lines', '']);
  });
});
