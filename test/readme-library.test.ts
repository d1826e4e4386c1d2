/**
 * The library example of docs/library.md, read from the page: type-checked as written (against the
 * package's built declarations), then run against the source through the real SDK and the scripted
 * chat server. Only the weather URL is pointed at a local server, and the example's `process.env` at
 * the chat server.
 */
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { afterEach, describe, expect, it } from 'vitest';
import * as zod from 'zod';
import * as library from '../src/index.js';
import { run, ToolRegistry, OpenAIProvider, courseTools, runAgent, type AgentEvent, type RunResult } from '../src/index.js';
import { startChatServer, type ChatServer } from './support/chat-server.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const page = join(root, 'docs', 'library.md');

/** The first ```ts block of docs/library.md. */
function libraryExample(): string {
  const match = /```ts\n([\s\S]*?)```/.exec(readFileSync(page, 'utf8'));
  if (!match) throw new Error(`${page} has no \`\`\`ts block`);
  return match[1]!;
}

/**
 * Type errors in the example, compiled as written as a file of this package: `vibe-agent` resolves to
 * the package itself, that is to the declarations `npm run build` wrote to dist/ (what a user gets).
 */
function typeErrors(code: string): string[] {
  const fileName = join(root, 'test', '__library-example__.ts');
  const source = code;
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const options = { ...config!.options, noEmit: true };
  const host = ts.createCompilerHost(options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => (name === fileName ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest));
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === fileName || fileExists(name);
  const program = ts.createProgram([fileName], options, host);
  return ts
    .getPreEmitDiagnostics(program, program.getSourceFile(fileName))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
}

/** Runs the example as written, with its imports, `process` and `console` supplied; returns its `result`. */
async function runExample(code: string, weatherBase: string, env: Record<string, string>) {
  const modules: Record<string, unknown> = { 'vibe-agent': library, zod };
  const body = code
    .replace(/^import \{([^}]*)\} from '([^']+)';$/gm, (_, names: string, from: string) => {
      if (!(from in modules)) throw new Error(`the example imports ${from}, which the test does not supply`);
      return `const {${names}} = __modules[${JSON.stringify(from)}];`;
    })
    .replaceAll('https://wttr.in', weatherBase);
  const js = ts.transpileModule(`${body}\nreturn result;`, { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext } }).outputText;
  const written: string[] = [];
  const logged: unknown[][] = [];
  const fakeProcess = { env, stdout: { write: (text: string) => written.push(text) } };
  const fakeConsole = { log: (...values: unknown[]) => logged.push(values) };
  const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<RunResult>;
  const result = await new AsyncFunction('__modules', 'process', 'console', js)(modules, fakeProcess, fakeConsole);
  return { result, written, logged };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function weatherServer(): Promise<string> {
  const server: Server = createServer((req, res) => {
    const city = decodeURIComponent(req.url!.slice(1).split('?')[0]!);
    res.end(`${city}: ${city === 'Rome' ? '+24°C' : '+18°C'}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function chatServer(): Promise<ChatServer> {
  const server = await startChatServer([
    { toolCalls: [{ name: 'weather', arguments: { city: 'Paris' } }, { name: 'weather', arguments: { city: 'Rome' } }] },
    { text: 'Rome is warmer: +24°C against +18°C in Paris.' },
  ]);
  closers.push(() => server.close());
  return server;
}

describe('the library example of docs/library.md', () => {
  it('type-checks as written, against the built package', () => {
    expect(typeErrors(libraryExample())).toEqual([]);
  }, 60_000);

  it('runs: a custom tool next to the course tools, streamed text, the result fields', async () => {
    const code = libraryExample();
    expect(code).toContain('https://wttr.in');
    const base = await weatherServer();
    const chat = await chatServer();

    const { result, written, logged } = await runExample(code, base, { OPENAI_API_KEY: 'test-key', OPENAI_BASE_URL: chat.url });

    expect([result.stopReason, result.turns]).toEqual(['answered', 2]);
    expect(result.answer).toBe('Rome is warmer: +24°C against +18°C in Paris.');
    expect(written.join('')).toBe(result.answer);
    expect(logged).toEqual([['answered', 2, result.usage]]);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.handoff).toBeUndefined();
    expect(chat.violations).toEqual([]);
    expect(chat.requests[0]!.model).toBe('gpt-4.1-mini');
    expect(chat.requests[0]!.tools!.map((t) => t.function.name)).toEqual(['current_time', 'calculator', 'fetch_url', 'weather']);
    const results = chat.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => m.content);
    expect(results).toEqual(['Paris: +18°C', 'Rome: +24°C']);
    expect(result.messages.at(-1)).toMatchObject({ role: 'assistant', content: result.answer });
  });

  it('runAgent yields the events and returns the same result shape; messages continue a conversation', async () => {
    const chat = await startChatServer([{ text: 'First.' }, { text: 'Second.' }]);
    closers.push(() => chat.close());
    const provider = new OpenAIProvider({ apiKey: 'test-key', baseURL: chat.url });
    const tools = new ToolRegistry(courseTools);
    const events: AgentEvent[] = [];
    const generator = runAgent({ provider, model: 'm', input: 'one', tools });
    let step = await generator.next();
    while (!step.done) {
      events.push(step.value);
      step = await generator.next();
    }
    expect(step.value).toMatchObject({ answer: 'First.', stopReason: 'answered', turns: 1 });
    expect(events.at(-1)).toMatchObject({ type: 'stop', reason: 'answered' });

    const second = await run({ provider, model: 'm', input: 'two', tools, messages: step.value.messages });
    expect(second.answer).toBe('Second.');
    expect(chat.requests[1]!.messages.map((m) => [m.role, m.content])).toEqual([
      ['user', 'one'],
      ['assistant', 'First.'],
      ['user', 'two'],
    ]);
  });
});
