/**
 * Long scripted sessions for the context policy: a real chat server, the real OpenAI provider,
 * the policy wired in as the CLI wires it, and helpers to count what each request carried.
 */
import { afterEach } from 'vitest';
import { z } from 'zod';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { run, type AgentOptions, type RunResult } from '../../src/core/loop.js';
import type { AgentEvent } from '../../src/contracts/events.js';
import { OpenAIProvider } from '../../src/providers/openai/openai-provider.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { defineTool } from '../../src/tools/define-tool.js';
import type { Tool } from '../../src/contracts/tool.js';
import { createContextPolicy, type ContextPolicy, type ContextPolicyOptions } from '../../src/context/policy.js';
import { SUMMARY_INSTRUCTIONS } from '../../src/context/summary-prompt.js';
import type { ScriptedReply } from '../../src/providers/scripted.js';
import { startChatServer, type ChatRequestBody, type ChatServer, type Fault } from './chat-server.js';

const open: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

export interface ContextSession {
  /** Where the agent's turns went. */
  server: ChatServer;
  /**
   * Where the policy's summary requests went: the same provider type and model, but a second
   * server, because the test server checks that each agent request echoes the calls it just sent,
   * and a summary request is a conversation of its own.
   */
  summaryServer: ChatServer;
  policy: ContextPolicy;
  result: RunResult;
  events: AgentEvent[];
}

export async function runContextSession(
  step: (body: ChatRequestBody) => ScriptedReply | Fault,
  options: { maxSteps?: number; tools?: Tool[]; providerName?: string; policy?: Partial<ContextPolicyOptions>; agent?: Partial<AgentOptions> },
): Promise<ContextSession> {
  const steps = Array.from({ length: options.maxSteps ?? 400 }, () => step);
  const server = await startChatServer(steps);
  const summaryServer = await startChatServer(steps);
  open.push(server, summaryServer);
  const named = options.providerName ? { name: options.providerName } : {};
  const provider = new OpenAIProvider({ apiKey: 'test-key', baseURL: server.url, ...named });
  const summaryProvider = new OpenAIProvider({ apiKey: 'test-key', baseURL: summaryServer.url, ...named });
  const registry = new ToolRegistry(options.tools ?? []);
  // Wired as the CLI wires it: read_output joins the tools once something was shortened.
  const policy = createContextPolicy({
    provider: summaryProvider,
    registry,
    offerReadOutput: (tool) => registry.register(tool),
    retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 },
    ...options.policy,
  });
  const events: AgentEvent[] = [];
  const result = await run(
    {
      provider,
      model: 'test-model',
      input: 'task',
      tools: registry,
      retry: { maxRetries: 0, baseDelayMs: 1, maxDelayMs: 1 },
      repeatLimit: 1_000,
      changingRepeatLimit: 1_000,
      prepareMessages: policy.prepareMessages,
      onContextOverflow: policy.onContextOverflow,
      ...options.agent,
    },
    (event) => events.push(event),
  );
  return { server, summaryServer, policy, result, events };
}

/** A summariser request (as opposed to an agent turn): our instructions, no tools. */
export function isSummaryRequest(body: ChatRequestBody): boolean {
  return !body.tools?.length && body.messages[0]?.content === SUMMARY_INSTRUCTIONS;
}

/** Tokens of a request as it went over the wire, counted like the policy counts (o200k_base). */
export function wireTokens(body: ChatRequestBody): number {
  let total = 3;
  for (const message of body.messages) {
    total += 4 + tokens(typeof message.content === 'string' ? message.content : '');
    for (const call of message.tool_calls ?? []) total += 4 + tokens(call.id) + tokens(call.function.name) + tokens(call.function.arguments);
    if (typeof message.tool_call_id === 'string') total += tokens(message.tool_call_id);
  }
  if (body.tools?.length) total += tokens(JSON.stringify(body.tools.map((tool) => tool.function)));
  return total;
}

function tokens(text: string): number {
  return text ? countTokens(text, { disallowedSpecial: new Set() }) : 0;
}

/** ~`chars` of varied, word-like text (tokenizes like real output, not like one repeated line). */
export function bigOutput(seed: number, chars: number): string {
  const words = ['const', 'return', 'import', 'value', 'config', 'handler', 'error', 'result', 'index', 'buffer', 'stream', 'request'];
  let state = seed * 2_654_435_761 + 1;
  const lines: string[] = [];
  let length = 0;
  for (let line = 1; length < chars; line++) {
    const parts: string[] = [];
    for (let w = 0; w < 8; w++) {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      parts.push(`${words[state % words.length]}${state % 997}`);
    }
    const text = `${seed}:${line} ${parts.join(' ')}`;
    lines.push(text);
    length += text.length + 1;
  }
  return lines.join('\n').slice(0, chars);
}

export function readFileTool(): Tool {
  return defineTool({
    name: 'read_file',
    description: 'Read a file (test stand-in: returns 20 KB of generated text).',
    parameters: z.object({ n: z.number().int() }),
    readOnly: true,
    async execute({ n }) {
      return bigOutput(n, 20_480);
    },
  });
}

export function userText(body: ChatRequestBody): string {
  return body.messages.map((message) => (typeof message.content === 'string' ? message.content : '')).join('\n');
}
