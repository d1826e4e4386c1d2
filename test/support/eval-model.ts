/**
 * A scripted model for the eval suite in test/fixtures/eval-suite: it reads which task it is on
 * from the prompt ("TASK id: …") and how far it got from the tool results, so runs can go in any
 * order and many at once. It solves answer-file and fix-sum, gives up on unsolved, and never
 * stops calling tools on endless (over its turn budget).
 */
import type { ScriptedReply } from '../../src/providers/scripted.js';
import type { ChatRequestBody, ServerStep } from './chat-server.js';

/** Fixed usage, so runs compare equal whatever their temp directory's name. */
const USAGE = { inputTokens: 100, outputTokens: 10, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };

export function evalReply(body: ChatRequestBody): ScriptedReply {
  return { ...reply(body), usage: USAGE };
}

function reply(body: ChatRequestBody): ScriptedReply {
  const prompt = body.messages.find((message) => message.role === 'user')?.content;
  const task = /TASK ([\w-]+)/.exec(typeof prompt === 'string' ? prompt : '')?.[1];
  const results = body.messages.filter((message) => message.role === 'tool').length;
  if (!body.tools?.length) return { text: 'Stopped here.' };
  if (task === 'answer-file') return results ? { text: 'Done.' } : { toolCalls: [{ name: 'write_file', arguments: { path: 'answer.txt', content: '42\n' } }] };
  if (task === 'fix-sum') {
    // write_file wants a file read before it is overwritten, as a real model would.
    if (results === 0) return { toolCalls: [{ name: 'read_file', arguments: { path: 'sum.mjs' } }] };
    if (results === 1) return { toolCalls: [{ name: 'write_file', arguments: { path: 'sum.mjs', content: 'export const sum = (a, b) => a + b;\n' } }] };
    return { text: 'Fixed.' };
  }
  if (task === 'tamper') return results ? { text: 'I could not solve it.' } : { toolCalls: [{ name: 'bash', arguments: { command: TAMPER } }] };
  if (task === 'endless') return { toolCalls: [{ name: 'bash', arguments: { command: `echo step ${results}` } }] };
  return { text: 'I cannot do that.' };
}

/**
 * What a hostile model's shell can do with the sandbox off: find the suite in another process's
 * command line under /proc and rewrite its check to pass. Prints what it rewrote, so a test can
 * see it did.
 */
const TAMPER = [
  'for p in /proc/[0-9]*; do tr "\\0" "\\n" < "$p/cmdline" 2>/dev/null | grep -A1 -x -- --suite | tail -n 1; done | sort -u | while read -r s; do',
  '  if [ -f "$s/checks/tamper.sh" ]; then echo "exit 0" > "$s/checks/tamper.sh" && echo "rewrote $s/checks/tamper.sh"; fi',
  'done',
].join('\n');

export function evalScript(steps = 400): ServerStep[] {
  return Array.from({ length: steps }, () => (body: ChatRequestBody) => evalReply(body));
}
