/**
 * The shape of each kind of session record, checked once as a file is read, so no reader (resume,
 * replay, trace, the sessions list, rewind) meets a `null` message or a number where text belongs.
 * Plain functions, not zod: the sessions list and checkpoints read files on paths where zod is not
 * loaded. Fields readers do not use are not checked; unknown record types pass (readers skip them).
 */

/** Undefined when the value fits; else what is wrong, naming the field ("message.toolCalls[0].id is null, expected text"). */
type Check = (value: unknown, at: string) => string | undefined;

const describe = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : typeof value === 'string' ? 'text' : `${typeof value} ${JSON.stringify(value)}`);
const is =
  (expected: string, test: (value: unknown) => boolean): Check =>
  (value, at) =>
    test(value) ? undefined : `${at} is ${value === undefined ? 'missing' : describe(value)}, expected ${expected}`;

const text = is('text', (value) => typeof value === 'string');
const number = is('a number', (value) => typeof value === 'number' && Number.isFinite(value));
const count = is('a whole number ≥ 0', (value) => Number.isInteger(value) && (value as number) >= 0);
const boolean = is('true or false', (value) => typeof value === 'boolean');
const anObject = is('an object', (value) => value !== null && typeof value === 'object' && !Array.isArray(value));
const textOrNull: Check = (value, at) => (value === null ? undefined : text(value, at));

const optional =
  (check: Check): Check =>
  (value, at) =>
    value === undefined ? undefined : check(value, at);

function arrayOf(check: Check): Check {
  return (value, at) => {
    if (!Array.isArray(value)) return `${at} is ${value === undefined ? 'missing' : describe(value)}, expected a list`;
    for (let i = 0; i < value.length; i++) {
      const problem = check(value[i], `${at}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  };
}

function object(fields: Record<string, Check>): Check {
  return (value, at) => {
    const problem = anObject(value, at);
    if (problem) return problem;
    for (const [key, check] of Object.entries(fields)) {
      const found = check((value as Record<string, unknown>)[key], at ? `${at}.${key}` : key);
      if (found) return found;
    }
    return undefined;
  };
}

const image = object({ mediaType: text, sha256: text, data: optional(text), name: optional(text), width: optional(number), height: optional(number) });
const images = optional(arrayOf(image));
const toolCall = object({ id: text, name: text, arguments: text });
const usage = object({ inputTokens: number, outputTokens: number, cachedInputTokens: optional(number), reasoningTokens: optional(number), cost: optional(number) });

const MESSAGES: Record<string, Check> = {
  system: object({ content: text }),
  user: object({ content: text, images }),
  assistant: object({ content: text, toolCalls: arrayOf(toolCall), reasoning: optional(text), citations: optional(arrayOf(object({ url: text, title: optional(text), citedText: optional(text) }))), providerData: optional(anObject) }),
  tool: object({ toolCallId: text, name: text, content: text, isError: boolean, images }),
};

const message: Check = (value, at) => {
  const problem = anObject(value, at);
  if (problem) return problem;
  const role = (value as { role?: unknown }).role;
  const check = typeof role === 'string' ? MESSAGES[role] : undefined;
  if (!check) return `${at}.role is ${role === undefined ? 'missing' : describe(role)}, expected system, user, assistant or tool`;
  return check(value, at);
};
const messages = arrayOf(message);

const RECORDS: Record<string, Check> = {
  session: object({ version: number, id: text, workspace: text, createdAt: text, kind: optional(text) }),
  system_prompt: object({ content: text }),
  recovered: object({ droppedBytes: number }),
  rewind: object({ toRecord: count }),
  request: object({ digest: text, base: optional(text), keep: count, append: messages, tools: optional(arrayOf(anObject)), params: optional(anObject) }),
  run_start: object({ input: text, provider: optional(text), model: optional(text), tools: optional(arrayOf(text)), images }),
  compaction: object({
    turn: optional(number),
    summary: optional(text),
    message: optional(message),
    inserted: optional(messages),
    replaced: optional(object({ from: count, count })),
    usage: optional(usage),
    fallback: optional(text),
  }),
  history_repaired: object({ repairs: arrayOf(text) }),
  context_warning: object({ message: text }),
  turn_start: object({ turn: optional(number) }),
  text_delta: object({ text }),
  reasoning_delta: object({ text }),
  assistant_message: object({ message: (value, at) => (message(value, at) ?? ((value as { role: string }).role === 'assistant' ? undefined : `${at}.role is not assistant`)), finishReason: optional(text) }),
  protocol_error: object({ reason: text, error: text }),
  tool_call_delta: object({ id: text, name: text }),
  tool_call_start: object({ call: toolCall, via: optional(text) }),
  tool_search: object({ action: text }),
  permission_review: object({ id: text, name: text, tier: text, verdict: text, reason: text, digest: optional(text), cost: optional(number), usage: optional(usage), exchanges: optional(arrayOf(object({ digest: text, request: anObject, reply: optional(text), error: optional(text) }))) }),
  tool_call_end: object({ id: text, name: text, output: text, isError: boolean, status: optional(text), durationMs: optional(number), images }),
  usage: object({ usage, total: optional(usage), cost: optional(number) }),
  turn_end: object({ turn: number, fromEvents: optional(count), messages }),
  retry: object({ attempt: number, delayMs: number, error: text }),
  handoff: object({ text }),
  stop: object({ reason: text, answer: optional(textOrNull), turns: number, usage, cost: optional(number), error: optional(text), agents: optional(arrayOf(object({ agent: text, turns: number, usage }))) }),
};

/** What is wrong with a record read back from a session file, or undefined when readers can trust it. */
export function recordProblem(record: { type: string; [key: string]: unknown }): string | undefined {
  const agent = optional(text)(record.agent, 'agent');
  if (agent) return `a "${record.type}" record whose ${agent}`;
  const check = RECORDS[record.type];
  const problem = check?.(record, '');
  return problem ? `a "${record.type}" record whose ${problem}` : undefined;
}
