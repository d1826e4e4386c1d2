import { afterEach } from 'vitest';
import { OpenAIProvider } from '../../src/providers/openai/openai-provider.js';
import { startChatServer, type ChatRequestBody, type ChatServer, type ServerStep } from './chat-server.js';

/** A conversation is named by its first user message: the parent's input, or the prompt a task gave a child. */
export function conversationOf(body: ChatRequestBody): string {
  return String(body.messages.find((message) => message.role === 'user')?.content ?? '');
}

export interface AgentServer {
  server: ChatServer;
  provider: OpenAIProvider;
  /** Conversations that asked for more replies than their script had. */
  unscripted: string[];
  /** The requests of one conversation, in order. */
  requestsOf(conversation: string): ChatRequestBody[];
}

const open: ChatServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

/** One wire server for a tree of agents: each conversation replays its own script, however they interleave. */
export async function startAgentServer(scripts: Record<string, ServerStep[]>): Promise<AgentServer> {
  const queues = new Map(Object.entries(scripts).map(([name, steps]) => [name, [...steps]]));
  const unscripted: string[] = [];
  const total = [...queues.values()].reduce((sum, steps) => sum + steps.length, 0);
  const step = (body: ChatRequestBody) => {
    const name = conversationOf(body);
    const next = queues.get(name)?.shift();
    if (!next) {
      unscripted.push(name);
      return { kind: 'http_error' as const, status: 400, body: { error: { message: `no reply scripted for "${name}"` } } };
    }
    return typeof next === 'function' ? next(body) : next;
  };
  const server = await startChatServer(Array.from({ length: total + 5 }, () => step), { conversationOf });
  open.push(server);
  const provider = new OpenAIProvider({ apiKey: 'test-key', baseURL: server.url, stream: true });
  return { server, provider, unscripted, requestsOf: (name) => server.requests.filter((body) => conversationOf(body) === name) };
}

/** A reply that starts one task per prompt, in one reply (10k tokens in, 1k out). */
export function tasks(...prompts: Array<{ prompt: string; agent?: string }>): ServerStep {
  return { toolCalls: prompts.map((args) => ({ name: 'task', arguments: { description: args.prompt, ...args } })), usage: { inputTokens: 10_000, outputTokens: 1_000 } };
}
