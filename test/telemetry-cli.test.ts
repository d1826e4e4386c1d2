import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startChatServer, type ChatServer } from './support/chat-server.js';
import { CLI_SESSION_TIMEOUT_MS, cliHome, type CliHome } from './support/cli-process.js';
import { genAiSchemaViolations } from './support/gen-ai-schemas.js';
import { startOtlpReceiver, type OtlpReceiver, type OtlpSpan } from './support/otlp-receiver.js';

const closers: Array<{ close(): Promise<void> }> = [];
const homes: CliHome[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c.close()));
  for (const home of homes.splice(0)) home.cleanup();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const API_KEY = 'sk-telemetry-test-key-0123456789';
const PROMPT = 'Summarise the notes file please';
const ANSWER = 'The notes mention a purple elephant.';

/** One turn with two reads (one of a missing file: a tool error), then the answer. */
async function tracedRun(extraEnv: Record<string, string> = {}, prompt = PROMPT): Promise<{ receiver: OtlpReceiver; server: ChatServer; code: number | null; stderr: string }> {
  const server: ChatServer = await startChatServer([
    {
      toolCalls: [
        { id: 'call-ok', name: 'read_file', arguments: { path: 'notes.txt' } },
        { id: 'call-bad', name: 'read_file', arguments: { path: 'missing.txt' } },
      ],
      usage: { inputTokens: 1200, outputTokens: 40 },
    },
    { text: ANSWER, usage: { inputTokens: 1500, outputTokens: 25 } },
  ]);
  const receiver = await startOtlpReceiver();
  closers.push(server, receiver);
  const home = cliHome();
  homes.push(home);
  writeFileSync(join(home.workspace, 'notes.txt'), 'a purple elephant walked by\n');
  const ran = await home.run([prompt], {
    OPENAI_API_KEY: API_KEY,
    OPENAI_BASE_URL: server.url,
    VIBE_MODEL: 'test-model',
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
    OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-token=abc123',
    ...extraEnv,
  });
  return { receiver, server, code: ran.code, stderr: ran.stderr };
}

const byName = (spans: OtlpSpan[], name: string) => spans.filter((span) => span.name === name);

describe('OpenTelemetry export', { timeout: CLI_SESSION_TIMEOUT_MS }, () => {
  it('exports run → turn → chat / execute_tool spans with GenAI attributes and no message content', async () => {
    const { receiver, code, stderr } = await tracedRun();
    expect(code, stderr).toBe(0);
    // Sent before the process exited: the run's spans are all here.
    const spans = receiver.spans();
    expect(receiver.headers[0]!['x-collector-token']).toBe('abc123');
    const [run] = byName(spans, 'invoke_agent vibe-agent');
    expect(run).toBeDefined();
    expect(run!.parentSpanId || undefined).toBeUndefined();
    expect(run!.attributes).toMatchObject({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'test-model',
      'gen_ai.usage.input_tokens': 2700,
      'gen_ai.usage.output_tokens': 65,
      'vibe_agent.stop_reason': 'answered',
    });
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(1);

    const turns = ['turn 1', 'turn 2'].map((name) => byName(spans, name)[0]!);
    for (const turn of turns) expect(turn.parentSpanId).toBe(run!.spanId);
    const chats = byName(spans, 'chat test-model');
    expect(chats).toHaveLength(2);
    expect(chats.map((chat) => chat.parentSpanId)).toEqual(turns.map((turn) => turn.spanId));
    expect(chats[0]!.kind).toBe(3); // CLIENT
    expect(chats[0]!.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'test-model',
      'gen_ai.request.temperature': 0,
      'gen_ai.usage.input_tokens': 1200,
      'gen_ai.usage.output_tokens': 40,
      'gen_ai.response.finish_reasons': ['tool_calls'],
    });
    expect(chats[1]!.attributes).toMatchObject({ 'gen_ai.usage.input_tokens': 1500, 'gen_ai.response.finish_reasons': ['stop'] });

    const tools = byName(spans, 'execute_tool read_file');
    expect(tools.map((tool) => tool.parentSpanId)).toEqual([turns[0]!.spanId, turns[0]!.spanId]);
    const ok = tools.find((tool) => tool.attributes['gen_ai.tool.call.id'] === 'call-ok')!;
    const bad = tools.find((tool) => tool.attributes['gen_ai.tool.call.id'] === 'call-bad')!;
    expect(ok.attributes).toMatchObject({ 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'read_file' });
    expect(ok.attributes['error.type']).toBeUndefined();
    expect(bad.attributes['error.type']).toBe('tool_error');
    expect(bad.status?.code).toBe(2); // ERROR

    const sent = receiver.bodies.join('\n');
    for (const content of [PROMPT, ANSWER, 'purple elephant', 'notes.txt', API_KEY]) expect(sent).not.toContain(content);
  });

  it('with OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true the prompt, answer and tool results are on the spans, keys redacted', async () => {
    const { receiver, code, stderr } = await tracedRun({ OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true' }, `${PROMPT} (my key is ${API_KEY})`);
    expect(code, stderr).toBe(0);
    const spans = receiver.spans();
    const run = byName(spans, 'invoke_agent vibe-agent')[0]!;
    expect(String(run.attributes['gen_ai.input.messages'])).toContain(PROMPT);
    expect(String(run.attributes['gen_ai.output.messages'])).toContain(ANSWER);
    const chats = byName(spans, 'chat test-model');
    expect(String(chats[1]!.attributes['gen_ai.output.messages'])).toContain(ANSWER);
    const ok = byName(spans, 'execute_tool read_file').find((tool) => tool.attributes['gen_ai.tool.call.id'] === 'call-ok')!;
    expect(String(ok.attributes['gen_ai.tool.call.arguments'])).toContain('notes.txt');
    expect(String(ok.attributes['gen_ai.tool.call.result'])).toContain('purple elephant');
    expect(receiver.bodies.join('\n')).not.toContain(API_KEY);
    expect(String(run.attributes['gen_ai.input.messages'])).toContain('[redacted]');
    // Every exported span's GenAI messages are what the conventions' JSON schemas allow.
    expect(JSON.parse(String(run.attributes['gen_ai.output.messages']))[0].finish_reason).toBe('stop');
    expect(genAiSchemaViolations(spans)).toEqual([]);
  });

  it('a failed request ends as a chat span with error.type, and the spans are still sent', async () => {
    const server = await startChatServer([{ kind: 'http_error', status: 400, body: { error: { message: 'bad things' } } }]);
    const receiver = await startOtlpReceiver();
    closers.push(server, receiver);
    const home = cliHome();
    homes.push(home);
    const ran = await home.run(['hello'], { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/v1/traces` });
    expect(ran.code).toBe(1);
    const spans = receiver.spans();
    const chat = byName(spans, 'chat test-model')[0]!;
    expect(chat.attributes['error.type']).toBe('provider_error');
    expect(byName(spans, 'invoke_agent vibe-agent')[0]!.attributes['error.type']).toBe('provider_error');
  });

  it('Ctrl-C during a request: the run stops and its spans are sent before the process exits', async () => {
    const server = await startChatServer([{ kind: 'silent' }]);
    const receiver = await startOtlpReceiver();
    closers.push(server, receiver);
    const home = cliHome();
    homes.push(home);
    const ran = await home.run(['hello'], { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model', OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }, (child) => {
      void server.waitForRequest(1).then(() => child.kill('SIGINT'));
    });
    expect(ran.code).toBe(130);
    const run = byName(receiver.spans(), 'invoke_agent vibe-agent')[0]!;
    expect(run.attributes).toMatchObject({ 'vibe_agent.stop_reason': 'aborted', 'error.type': 'aborted' });
    expect(byName(receiver.spans(), 'turn 1')[0]!.parentSpanId).toBe(run.spanId);
  });

  it('without the variable, a run loads no OpenTelemetry module; with it, the telemetry chunk is loaded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vibe-loaded-'));
    dirs.push(dir);
    // A module hook that writes down every module Node loads.
    writeFileSync(join(dir, 'hooks.mjs'), "import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) { appendFileSync(process.env.LOADED_LOG, url + '\\n'); return next(url, context); }\n");
    writeFileSync(join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n");
    const loaded = async (log: string, env: Record<string, string>) => {
      const server = await startChatServer([{ text: 'fine' }]);
      closers.push(server);
      const home = cliHome();
      homes.push(home);
      const ran = await home.run(['hi'], { OPENAI_API_KEY: API_KEY, OPENAI_BASE_URL: server.url, VIBE_MODEL: 'test-model', NODE_OPTIONS: `--import ${join(dir, 'register.mjs')}`, LOADED_LOG: join(dir, log), ...env });
      expect(ran.code, ran.stderr).toBe(0);
      const files = readFileSync(join(dir, log), 'utf8').split('\n').filter((url) => url.startsWith('file:'));
      expect(files.some((url) => url.endsWith('/dist/cli/main.js'))).toBe(true);
      return files.filter((url) => readFileSync(new URL(url), 'utf8').includes('@opentelemetry'));
    };
    expect(await loaded('plain.log', {})).toEqual([]);
    const receiver = await startOtlpReceiver();
    closers.push(receiver);
    const withTelemetry = await loaded('traced.log', { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
    expect(withTelemetry.some((url) => /start-telemetry-[A-Z0-9]+\.js$/.test(url))).toBe(true);
    expect(receiver.spans().length).toBeGreaterThan(0);
  });
});
