/**
 * Records a real session for the trace tests: the built CLI against the local Chat Completions
 * server, with tool calls (one failing), a 429 answered by a retry, and a compaction forced by a
 * small context window. A secret set in the recording run's environment is read by a tool and
 * repeated by the model, so the session file holds it only redacted.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SUMMARY_INSTRUCTIONS } from '../../src/context/summary-prompt.js';
import type { ScriptedReply } from '../../src/providers/scripted.js';
import { startChatServer, type ChatRequestBody, type ChatServer, type Fault, type ServerStep } from './chat-server.js';
import { cliHome, type CliHome, type Ran } from './cli-process.js';

export const TRACE_SECRET = 'tok-trace-0123456789abcdef-secret';
export const FINAL_ANSWER = 'The notes describe three planets </script><script>window.hostile=1</script> \u2028 done.';

export interface RecordedSession {
  home: CliHome;
  server: ChatServer;
  ran: Ran;
  /** The recorded session file. */
  path: string;
  cleanup(): Promise<void>;
}

const paragraph = (topic: string) => Array.from({ length: 110 }, (_, i) => `${topic} line ${i}: the quick brown fox jumps over the lazy dog near planet ${i % 7}.`).join('\n');

/** Thinking aloud long enough that a few turns fill the small window, so the context policy compacts. */
const musing = (topic: string) => Array.from({ length: 40 }, (_, i) => `Considering ${topic}, step ${i}: the notes may say more about planet ${i % 9}.`).join(' ');

function isSummaryRequest(body: ChatRequestBody): boolean {
  return body.messages.some((message) => typeof message.content === 'string' && message.content.includes(SUMMARY_INSTRUCTIONS.slice(0, 60)));
}

/** The agent's replies in order; compaction summary requests are answered whenever they come. */
function conversation(): ServerStep[] {
  const replies: Array<ScriptedReply | Fault> = [
    { text: musing('the notes'), toolCalls: [{ id: 'call_read', name: 'read_file', arguments: { path: 'notes.txt' } }, { id: 'call_missing', name: 'read_file', arguments: { path: 'missing.txt' } }] },
    { kind: 'http_error', status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'slow down' } } },
    { text: musing('more'), toolCalls: [{ id: 'call_more', name: 'read_file', arguments: { path: 'more.txt' } }] },
    { text: musing('the secret'), toolCalls: [{ id: 'call_secret', name: 'read_file', arguments: { path: 'secret.txt' } }] },
    { text: `${FINAL_ANSWER} The key was ${TRACE_SECRET}.` },
  ];
  const respond = (body: ChatRequestBody): ScriptedReply | Fault => {
    // Usage near what the client estimates (so no truncation warning), half of it served from the cache.
    const inputTokens = Math.round(JSON.stringify(body.messages).length / 2.5);
    const usage = { inputTokens, cachedInputTokens: Math.floor(inputTokens / 2), outputTokens: 12 };
    if (isSummaryRequest(body)) return { text: '## Goal\nRead the notes.\n## Facts to keep\nnotes.txt lists planets.', usage };
    const next = replies.shift() ?? { text: 'out of script' };
    return 'kind' in next ? next : { ...next, usage };
  };
  return Array.from({ length: 12 }, () => respond);
}

export async function recordTraceSession(): Promise<RecordedSession> {
  // The summary request stands alone: it does not echo the calls of the reply before it.
  const server = await startChatServer(conversation(), { checkEcho: false });
  const home = cliHome();
  writeFileSync(join(home.workspace, 'notes.txt'), paragraph('notes'));
  writeFileSync(join(home.workspace, 'more.txt'), paragraph('more'));
  writeFileSync(join(home.workspace, 'secret.txt'), `the deploy key is ${TRACE_SECRET}\n`);
  const env = { OPENAI_API_KEY: 'test-key-for-trace', OPENAI_BASE_URL: server.url, VIBE_MODEL: 'gpt-4o', TRACE_DEPLOY_TOKEN: TRACE_SECRET };
  const ran = await home.run(['Read the notes and tell me about them', '--yes', '--context-window', '4096'], env);
  const files = home.sessionFiles();
  return {
    home,
    server,
    ran,
    path: home.sessionPath(files[0] ?? 'missing.jsonl'),
    cleanup: async () => {
      await server.close();
      home.cleanup();
    },
  };
}
