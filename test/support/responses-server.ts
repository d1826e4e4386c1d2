/**
 * A real HTTP server on 127.0.0.1 that speaks OpenAI's Responses API: streamed events
 * (response.created, output_item.added/done, reasoning summary deltas, output_text deltas,
 * function_call_arguments deltas, response.completed with usage), errors shaped as the real API
 * shapes them, and faults. It replays scripted replies, records every request, and refuses (HTTP
 * 400, recorded as a violation) what the real API refuses with `store: false`: a function call
 * sent without the reasoning item that preceded it, a reasoning item altered or never issued, a
 * function_call_output matching no call, a call rewritten, an unknown field.
 */
import { createServer } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import type { ScriptedReply } from '../../src/providers/scripted.js';
import { checkDataUrl } from './image-check.js';
import { json, listenOnLoopback, readBody, startSse, sendRaw, type RawFault } from './http-replies.js';

export interface ResponsesRequestBody {
  model: string;
  input: Array<Record<string, unknown> & { type?: string }>;
  tools?: Array<Record<string, unknown>>;
  stream?: boolean;
  store?: boolean;
  include?: string[];
  reasoning?: { summary?: string; effort?: string };
  temperature?: number;
  prompt_cache_key?: string;
  [key: string]: unknown;
}

export type ResponsesFault =
  | RawFault
  | { kind: 'http_error'; status: number; body?: unknown; headers?: Record<string, string>; message?: string }
  /** Sends the reply's first `afterEvents` events, then destroys the socket. */
  | { kind: 'cut'; reply: ScriptedReply; afterEvents: number }
  /** Streams the reply with a pause before each event. */
  | { kind: 'slow'; reply: ScriptedReply; delayMs: number }
  /** Sends the reply's first `afterEvents` events, then nothing, keeping the connection open. */
  | { kind: 'stall'; reply: ScriptedReply; afterEvents: number }
  | { kind: 'silent' }
  /** Sends the reply's first `afterEvents` events, then one whose data is not JSON, then ends. */
  | { kind: 'garbled'; reply: ScriptedReply; afterEvents: number }
  /** Sends the reply's first `afterEvents` events, then an `error` event with this code, then ends. */
  | { kind: 'stream_error'; reply: ScriptedReply; afterEvents: number; code: string; message: string }
  /**
   * A reply whose model searched the web (OpenAI's `web_search` tool): a `web_search_call` item
   * after the reasoning, then the text with `url_citation` annotations on each source.
   */
  | { kind: 'web_search'; reply: ScriptedReply; query: string; sources: Array<{ url: string; title: string }> };

export type ResponsesStep = ScriptedReply | ResponsesFault | ((body: ResponsesRequestBody) => ScriptedReply | ResponsesFault);

export interface ResponsesServer {
  url: string;
  requests: ResponsesRequestBody[];
  violations: string[];
  readonly remaining: number;
  close(): Promise<void>;
}

export interface ResponsesServerOptions {
  /** Models that reason and so refuse `temperature` (default: o-series and gpt-5). */
  reasoningModel?: (model: string) => boolean;
}

/** Request fields the real API takes; anything else is refused as an unknown parameter. */
const KNOWN_FIELDS = new Set([
  'model', 'input', 'instructions', 'tools', 'tool_choice', 'parallel_tool_calls', 'stream', 'store', 'include', 'reasoning', 'temperature', 'top_p',
  'max_output_tokens', 'prompt_cache_key', 'prompt_cache_retention', 'previous_response_id', 'metadata', 'text', 'truncation', 'user', 'service_tier', 'safety_identifier', 'stream_options',
]);
const ITEM_FIELDS: Record<string, Set<string>> = {
  message: new Set(['type', 'role', 'content', 'id', 'status']),
  function_call: new Set(['type', 'call_id', 'name', 'arguments', 'id', 'status']),
  function_call_output: new Set(['type', 'call_id', 'output', 'id', 'status']),
  reasoning: new Set(['type', 'id', 'summary', 'encrypted_content', 'content', 'status']),
  web_search_call: new Set(['type', 'id', 'status', 'action']),
};

interface IssuedReasoning {
  id: string;
  encrypted: string;
  /** The calls of the same turn: each must come after this item. */
  callIds: string[];
  /** The web search that came right after it, which must follow it in the input too. */
  search?: string;
}

interface IssuedCall {
  call_id: string;
  name: string;
  arguments: string;
}

export async function startResponsesServer(script: ResponsesStep[], options: ResponsesServerOptions = {}): Promise<ResponsesServer> {
  const reasoningModel = options.reasoningModel ?? ((model: string) => /^(o\d|gpt-5)/.test(model));
  const requests: ResponsesRequestBody[] = [];
  const violations: string[] = [];
  const issuedReasoning = new Map<string, IssuedReasoning>();
  /** web_search_call id → the item as sent: with `store: false` it can only come back whole and unchanged. */
  const issuedSearches = new Map<string, Record<string, unknown>>();
  let pendingCalls: IssuedCall[] = [];
  let position = 0;
  let counter = 0;

  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || !req.url?.endsWith('/responses')) return json(res, 404, apiError(`Invalid URL (${req.method} ${req.url})`, 'invalid_request_error'));
    let body: ResponsesRequestBody;
    try {
      body = JSON.parse(await readBody(req)) as ResponsesRequestBody;
    } catch {
      return json(res, 400, apiError('We could not parse the JSON body of your request.', 'invalid_request_error'));
    }
    requests.push(body);
    const problems = checkRequest(body, issuedReasoning, pendingCalls, reasoningModel(body.model), issuedSearches);
    pendingCalls = [];
    if (problems.length) {
      violations.push(...problems.map((p) => `request ${requests.length}: ${p.message}`));
      return json(res, 400, apiError(problems[0]!.message, 'invalid_request_error', problems[0]!.param, problems[0]!.code));
    }
    const stepDef = script[position];
    if (!stepDef) {
      violations.push(`request ${requests.length}: unexpected request, the script has ${script.length} steps`);
      return json(res, 500, apiError('script exhausted', 'server_error'));
    }
    position++;
    const step = typeof stepDef === 'function' ? stepDef(body) : stepDef;
    if ('kind' in step) {
      if (step.kind === 'http_error') {
        for (const [name, value] of Object.entries(step.headers ?? {})) res.setHeader(name, value);
        return json(res, step.status, step.body ?? apiError(step.message ?? defaultMessage(step.status), step.status === 429 ? 'requests' : step.status >= 500 || step.status === 200 ? 'server_error' : 'invalid_request_error', null, step.status === 429 ? 'rate_limit_exceeded' : null));
      }
      if (step.kind === 'silent') return;
      if (step.kind === 'raw_bytes' || step.kind === 'endless') return sendRaw(res, step);
      if (step.kind === 'web_search') {
        const reply = buildReply(step.reply, body, () => ++counter, { query: step.query, sources: step.sources });
        remember(reply);
        if (reply.search) issuedSearches.set(String(reply.search.id), reply.search);
        startSse(res);
        for (const frame of reply.frames) res.write(frame);
        return res.end();
      }
      const reply = buildReply(step.reply, body, () => ++counter);
      startSse(res);
      if (step.kind === 'slow') {
        for (const frame of reply.frames) {
          await new Promise((resolve) => setTimeout(resolve, step.delayMs));
          if (res.destroyed) return;
          res.write(frame);
        }
        remember(reply);
        return res.end();
      }
      for (const frame of reply.frames.slice(0, step.afterEvents)) res.write(frame);
      if (step.kind === 'garbled') return res.end('event: response.output_text.delta\ndata: {"type": "response.output_text.delta", "delta": "x"\n\n');
      if (step.kind === 'stream_error') return res.end(sse('error', { type: 'error', code: step.code, message: step.message, param: null, sequence_number: step.afterEvents }));
      // Cut once what was written has left, so the client has the headers and the first events.
      if (step.kind === 'cut') res.write('\n', () => res.socket?.destroy());
      return;
    }
    const reply = buildReply(step, body, () => ++counter);
    remember(reply);
    startSse(res);
    for (const frame of reply.frames) res.write(frame);
    res.end();
  });

  function remember(reply: BuiltReply): void {
    pendingCalls = reply.calls;
    if (reply.reasoning) issuedReasoning.set(reply.reasoning.id, reply.reasoning);
  }

  const { origin, close } = await listenOnLoopback(server);
  return {
    url: `${origin}/v1`,
    requests,
    violations,
    get remaining() {
      return script.length - position;
    },
    close,
  };
}

export function apiError(message: string, type: string, param: string | null = null, code: string | null = null) {
  return { error: { message, type, param, code } };
}

function defaultMessage(status: number): string {
  if (status === 401) return 'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.';
  if (status === 429) return 'Rate limit reached for requests. Please try again later.';
  return 'The server had an error while processing your request. Sorry about that!';
}

interface Problem {
  message: string;
  param?: string | null;
  code?: string | null;
}

function checkRequest(body: ResponsesRequestBody, issued: Map<string, IssuedReasoning>, previousCalls: IssuedCall[], reasons: boolean, searches: Map<string, Record<string, unknown>>): Problem[] {
  const problems: Problem[] = [];
  for (const key of Object.keys(body)) if (!KNOWN_FIELDS.has(key)) problems.push({ message: `Unknown parameter: '${key}'.`, param: key, code: 'unknown_parameter' });
  if (typeof body.model !== 'string' || !body.model) problems.push({ message: "Missing required parameter: 'model'.", param: 'model', code: 'missing_required_parameter' });
  if (!Array.isArray(body.input)) return [...problems, { message: "Invalid type for 'input': expected an array.", param: 'input' }];
  if (reasons && body.temperature !== undefined) problems.push({ message: "Unsupported parameter: 'temperature' is not supported with this model.", param: 'temperature', code: 'unsupported_parameter' });
  if (body.prompt_cache_key !== undefined && typeof body.prompt_cache_key !== 'string') problems.push({ message: "Invalid type for 'prompt_cache_key': expected a string.", param: 'prompt_cache_key' });
  const seenCalls = new Map<string, Record<string, unknown>>();
  const seenReasoning = new Set<string>();
  body.input.forEach((item, i) => {
    const type = item.type ?? (item.role ? 'message' : undefined);
    const fields = type ? ITEM_FIELDS[type] : undefined;
    if (!fields) return problems.push({ message: `Invalid value: '${String(item.type)}'. Supported values are: 'message', 'function_call', 'function_call_output', 'reasoning', ….`, param: `input[${i}].type` });
    for (const key of Object.keys(item)) if (!fields.has(key)) problems.push({ message: `Unknown parameter: 'input[${i}].${key}'.`, param: `input[${i}].${key}`, code: 'unknown_parameter' });
    if (type === 'message') problems.push(...checkMessage(item, i));
    if (type === 'reasoning') {
      const known = issued.get(String(item.id));
      if (!known) problems.push({ message: `Item with id '${String(item.id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`, param: 'input' });
      else if (item.encrypted_content !== known.encrypted) problems.push({ message: `The encrypted content for item ${known.id} could not be verified.`, param: 'input', code: 'invalid_encrypted_content' });
      seenReasoning.add(String(item.id));
      const following = body.input[i + 1];
      const followed = following && (following.type === 'function_call' || following.type === 'reasoning' || following.type === 'web_search_call' || (following.type === 'message' && following.role === 'assistant'));
      if (known?.search && (following?.type !== 'web_search_call' || following.id !== known.search)) problems.push({ message: `Item '${String(item.id)}' of type 'reasoning' was provided without its required following item: '${known.search}'.`, param: 'input' });
      else if (!followed) problems.push({ message: `Item '${String(item.id)}' of type 'reasoning' was provided without its required following item.`, param: 'input' });
    }
    if (type === 'web_search_call') {
      const sent = searches.get(String(item.id));
      if (!sent) problems.push({ message: `Item with id '${String(item.id)}' not found. Items are not persisted when \`store\` is set to false. Try again with \`store\` set to true, or remove this item from your input.`, param: 'input' });
      else if (!isDeepStrictEqual(sent, item)) problems.push({ message: `Invalid web_search_call item '${String(item.id)}': it differs from the one the API returned.`, param: `input[${i}]` });
    }
    if (type === 'function_call') {
      if (typeof item.call_id !== 'string' || typeof item.name !== 'string' || typeof item.arguments !== 'string') problems.push({ message: `Invalid function_call at input[${i}]: call_id, name and arguments must be strings.`, param: `input[${i}]` });
      const reasoning = [...issued.values()].find((r) => r.callIds.includes(String(item.call_id)));
      if (reasoning && !seenReasoning.has(reasoning.id)) problems.push({ message: `Item 'fc_${String(item.call_id)}' of type 'function_call' was provided without its required 'reasoning' item: '${reasoning.id}'.`, param: 'input' });
      seenCalls.set(String(item.call_id), item);
    }
    if (type === 'function_call_output') {
      if (!seenCalls.has(String(item.call_id))) problems.push({ message: `No tool call found for function call output with call_id ${String(item.call_id)}.`, param: 'input' });
      if (typeof item.output !== 'string' && !Array.isArray(item.output)) problems.push({ message: `Invalid type for 'input[${i}].output': expected a string.`, param: `input[${i}].output` });
    }
  });
  for (const call of previousCalls) {
    const found = seenCalls.get(call.call_id);
    if (!found) problems.push({ message: `tool call ${call.call_id} (${call.name}) was not echoed in the input` });
    else if (found.name !== call.name || found.arguments !== call.arguments) problems.push({ message: `tool call ${call.call_id} was rewritten: sent ${JSON.stringify(call)}, got back ${JSON.stringify(found)}` });
  }
  for (const [id, call] of seenCalls) {
    const answered = body.input.some((item) => item.type === 'function_call_output' && item.call_id === id);
    if (!answered) problems.push({ message: `No tool output found for function call ${id} (${String(call.name)}).`, param: 'input' });
  }
  for (const tool of body.tools ?? []) {
    if (tool.type === 'web_search') {
      const extra = Object.keys(tool).filter((key) => !['type', 'filters', 'search_context_size', 'user_location'].includes(key));
      if (extra.length) problems.push({ message: `Unknown parameter: 'tools[].${extra[0]}'.`, param: 'tools', code: 'unknown_parameter' });
      continue;
    }
    if (tool.type !== 'function' || typeof tool.name !== 'string' || 'function' in tool) problems.push({ message: `Invalid tool ${JSON.stringify(tool).slice(0, 80)}: Responses tools are { type: 'function', name, parameters } (not nested under 'function').`, param: 'tools' });
  }
  return problems;
}

function checkMessage(item: Record<string, unknown>, i: number): Problem[] {
  if (!['user', 'assistant', 'system', 'developer'].includes(String(item.role))) return [{ message: `Invalid value: '${String(item.role)}' for input[${i}].role.`, param: `input[${i}].role` }];
  if (typeof item.content === 'string') return [];
  if (!Array.isArray(item.content)) return [{ message: `Invalid type for 'input[${i}].content'.`, param: `input[${i}].content` }];
  const allowed = item.role === 'assistant' ? ['output_text', 'refusal'] : ['input_text', 'input_image', 'input_file'];
  return (item.content as Array<{ type?: string; image_url?: unknown }>).flatMap((part, j): Problem[] => {
    if (!allowed.includes(String(part.type))) return [{ message: `Invalid content type '${String(part.type)}' for a ${String(item.role)} message at input[${i}].`, param: `input[${i}].content` }];
    return part.type === 'input_image' ? checkDataUrl(`input[${i}].content[${j}]`, part.image_url).map((message) => ({ message, param: `input[${i}].content[${j}].image_url` })) : [];
  });
}

interface BuiltReply {
  frames: string[];
  calls: IssuedCall[];
  reasoning: IssuedReasoning | undefined;
  search?: Record<string, unknown>;
}

function sse(event: string, data: Record<string, unknown>): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

function fragments(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

function buildReply(reply: ScriptedReply, body: ResponsesRequestBody, next: () => number, web?: { query: string; sources: Array<{ url: string; title: string }> }): BuiltReply {
  const n = next();
  const responseId = `resp_${n}`;
  let sequence = 0;
  const frames: string[] = [];
  const emit = (type: string, data: Record<string, unknown>) => frames.push(sse(type, { type, sequence_number: sequence++, ...data }));
  const output: Array<Record<string, unknown>> = [];
  const shell = (status: string) => ({ id: responseId, object: 'response', created_at: 1, status, model: body.model, output, store: body.store ?? true, error: null, incomplete_details: null });
  emit('response.created', { response: { ...shell('in_progress'), output: [] } });
  emit('response.in_progress', { response: { ...shell('in_progress'), output: [] } });

  const calls: IssuedCall[] = (reply.toolCalls ?? []).map((call, index) => ({
    call_id: call.id ?? `call_${n}_${index}`,
    name: call.name,
    arguments: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments),
  }));
  let reasoning: IssuedReasoning | undefined;
  if (reply.reasoning) {
    const index = output.length;
    const id = `rs_${n}`;
    const encrypted = `enc:${Buffer.from(`${id}:${reply.reasoning}`).toString('base64')}`;
    const summarised = body.reasoning?.summary !== undefined;
    emit('response.output_item.added', { output_index: index, item: { id, type: 'reasoning', summary: [] } });
    if (summarised) {
      emit('response.reasoning_summary_part.added', { item_id: id, output_index: index, summary_index: 0, part: { type: 'summary_text', text: '' } });
      for (const piece of fragments(reply.reasoning, 8)) emit('response.reasoning_summary_text.delta', { item_id: id, output_index: index, summary_index: 0, delta: piece });
      emit('response.reasoning_summary_text.done', { item_id: id, output_index: index, summary_index: 0, text: reply.reasoning });
      emit('response.reasoning_summary_part.done', { item_id: id, output_index: index, summary_index: 0, part: { type: 'summary_text', text: reply.reasoning } });
    }
    const item: Record<string, unknown> = { id, type: 'reasoning', summary: summarised ? [{ type: 'summary_text', text: reply.reasoning }] : [] };
    if (body.include?.includes('reasoning.encrypted_content')) item.encrypted_content = encrypted;
    emit('response.output_item.done', { output_index: index, item });
    output.push(item);
    reasoning = { id, encrypted, callIds: calls.map((call) => call.call_id) };
  }
  let search: Record<string, unknown> | undefined;
  if (web) {
    const index = output.length;
    const id = `ws_${n}`;
    emit('response.output_item.added', { output_index: index, item: { id, type: 'web_search_call', status: 'in_progress' } });
    emit('response.web_search_call.in_progress', { item_id: id, output_index: index });
    emit('response.web_search_call.searching', { item_id: id, output_index: index });
    emit('response.web_search_call.completed', { item_id: id, output_index: index });
    search = { id, type: 'web_search_call', status: 'completed', action: { type: 'search', query: web.query } };
    emit('response.output_item.done', { output_index: index, item: search });
    output.push(search);
    if (reasoning) reasoning.search = id;
  }
  if (reply.text) {
    const index = output.length;
    const id = `msg_${n}`;
    emit('response.output_item.added', { output_index: index, item: { id, type: 'message', role: 'assistant', status: 'in_progress', content: [] } });
    emit('response.content_part.added', { item_id: id, output_index: index, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    for (const piece of fragments(reply.text, 5)) emit('response.output_text.delta', { item_id: id, output_index: index, content_index: 0, delta: piece, logprobs: [] });
    emit('response.output_text.done', { item_id: id, output_index: index, content_index: 0, text: reply.text, logprobs: [] });
    // Each source cited over the whole text, as url_citation annotations do (start/end index into the text).
    const annotations = (web?.sources ?? []).map((source) => ({ type: 'url_citation', start_index: 0, end_index: reply.text!.length, url: source.url, title: source.title }));
    annotations.forEach((annotation, k) => emit('response.output_text.annotation.added', { item_id: id, output_index: index, content_index: 0, annotation_index: k, annotation }));
    const part = { type: 'output_text', text: reply.text, annotations };
    emit('response.content_part.done', { item_id: id, output_index: index, content_index: 0, part });
    const item = { id, type: 'message', role: 'assistant', status: 'completed', content: [part] };
    emit('response.output_item.done', { output_index: index, item });
    output.push(item);
  }
  const incomplete = reply.finishReason === 'length';
  for (const call of calls) {
    const index = output.length;
    const id = `fc_${call.call_id}`;
    emit('response.output_item.added', { output_index: index, item: { id, type: 'function_call', status: 'in_progress', call_id: call.call_id, name: call.name, arguments: '' } });
    for (const piece of fragments(call.arguments, 7)) emit('response.function_call_arguments.delta', { item_id: id, output_index: index, delta: piece });
    if (!incomplete) emit('response.function_call_arguments.done', { item_id: id, output_index: index, arguments: call.arguments });
    const item = { id, type: 'function_call', status: incomplete ? 'incomplete' : 'completed', call_id: call.call_id, name: call.name, arguments: call.arguments };
    emit('response.output_item.done', { output_index: index, item });
    output.push(item);
  }
  const input = reply.usage?.inputTokens ?? Math.ceil(JSON.stringify(body.input).length / 4);
  const outputTokens = reply.usage?.outputTokens ?? 10;
  const usage = {
    input_tokens: input,
    input_tokens_details: { cached_tokens: reply.usage?.cachedInputTokens ?? 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: reply.usage?.reasoningTokens ?? 0 },
    total_tokens: input + outputTokens,
  };
  if (incomplete) emit('response.incomplete', { response: { ...shell('incomplete'), incomplete_details: { reason: 'max_output_tokens' }, usage } });
  else emit('response.completed', { response: { ...shell('completed'), usage } });
  return { frames, calls, reasoning, ...(search ? { search } : {}) };
}
