import { withoutEmptyOptionals } from './empty-optionals.js';
import { errorText } from '../contracts/error-text.js';
import type { AgentEvent } from '../contracts/events.js';
import type { Message, ToolCall } from '../contracts/messages.js';
import type { ToolSchema } from '../contracts/provider.js';
import { capText } from './cap-output.js';
import { MemoryOutputStore, type OutputStore } from './output-store.js';
import type { Authorize, Tool, ToolContext, ToolResult } from '../contracts/tool.js';
import { parseJson } from '../contracts/bounded-json.js';

export interface InvokeOptions {
  signal?: AbortSignal;
  workspace?: string;
  authorize?: Authorize;
  /** The conversation so far, handed to `authorize` (the auto mode's reviewer reads it). */
  history?: readonly Message[];
}

/**
 * What shapes the registry's offer (tool search): the schemas to send for the tools it holds, and
 * the tools of its own (tool_search, call_tool) by name. Narrow, so that whoever holds the offer
 * (the context policy) sees tools only through the registry.
 */
export interface ToolOffer {
  schemas(tools: readonly Tool[]): ToolSchema[];
  tool(name: string): Tool | undefined;
  /**
   * A reply's calls as they are to run: a call made through the offer's own tools (call_tool) as
   * the call of the tool it names, or why it cannot be made; `{}` for a call that runs as it is.
   */
  resolveCalls?(calls: readonly ToolCall[], offered: (name: string) => Tool | undefined): Promise<ResolvedCall[]>;
  /** What the offer did since last asked (tools deferred, searches), as events without their turn. */
  takeNotes?(): OfferNote[];
}

export type ResolvedCall = { call?: ToolCall; error?: string };
type WithoutTurn<T> = T extends unknown ? Omit<T, 'turn' | 'agent'> : never;
export type OfferNote = WithoutTurn<Extract<AgentEvent, { type: 'tool_search' }>>;

export interface RegistryOptions {
  /** Default per-call time limit. */
  timeoutMs?: number;
  /**
   * Longest tool result handed to the model; longer ones keep head and tail, and the whole text
   * goes to `outputs` under the id the note names (read_output pages it back).
   */
  maxOutputChars?: number;
  /** Where whole outputs go when they are cut (default: in memory, for this registry's life). */
  outputs?: OutputStore;
  /**
   * Applied to every result before the model sees it, whatever the tool (built-in, MCP, a
   * library user's): the CLI removes the values of known secrets (see createRedactor).
   */
  redact?: (text: string) => string;
  /**
   * Asked before every call, first with the tool alone, then with its validated arguments: a
   * reason refuses it (status denied) before anything runs. Skills and custom commands with
   * `allowed-tools` narrow what may be called, and with which arguments, through this.
   */
  gate?: (tool: Tool, args?: unknown) => string | undefined;
  /** Shapes what is offered (tool search defers tools past a threshold); absent, every tool's schema. */
  offer?: ToolOffer;
}

export class ToolRegistry {
  private readonly tools = new Map<string, Tool>();
  private readonly timeoutMs: number;
  private readonly maxOutputChars: number;
  private readonly redact: (text: string) => string;
  private readonly gate: RegistryOptions['gate'];
  private held: ToolSchema[] | undefined;
  /** Tool search, when the run uses it (see ToolOffer). */
  readonly offer: ToolOffer | undefined;
  /** The whole text of every cut result (the context policy and read_output use the same store). */
  readonly outputs: OutputStore;

  constructor(tools: Iterable<Tool> = [], options: RegistryOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 120_000;
    this.maxOutputChars = options.maxOutputChars ?? 30_000;
    this.redact = options.redact ?? ((text) => text);
    this.gate = options.gate;
    this.outputs = options.outputs ?? new MemoryOutputStore();
    this.offer = options.offer;
    for (const tool of tools) this.register(tool);
  }

  register(tool: Tool): this {
    if (this.tools.has(tool.name)) throw new Error(`A tool named "${tool.name}" is already registered.`);
    this.tools.set(tool.name, tool);
    return this;
  }

  /** Removes a tool (an MCP server's list changed); the next request's schemas leave it out. */
  unregister(name: string): boolean {
    return this.tools.delete(name);
  }

  get(name: string): Tool | undefined {
    return this.tools.get(name) ?? this.offer?.tool(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  list(): Tool[] {
    return [...this.tools.values()];
  }

  /** Starts loading the code of a tool a reply is naming (see Tool.load), so its call does not wait for it. */
  prepare(name: string): void {
    // A load that fails is tried again, and reported, by the call itself.
    this.get(name)?.load?.().catch(() => undefined);
  }

  /** The tool by name with its code loaded (see Tool.load); undefined when there is none. Rejects when loading fails. */
  async loaded(name: string): Promise<Tool | undefined> {
    const tool = this.get(name);
    if (tool?.load) await tool.load();
    return tool;
  }

  /** The schemas offered to the model: the registry's tools, or the offer held since `holdSchemas`. */
  schemas(): ToolSchema[] {
    return this.held ? [...this.held] : this.current();
  }

  /**
   * Fixes the offer as it is now: tools that come or go later (an MCP server's list changed, a
   * server that started late) join it only at `holdSchemas` again, which the context policy calls
   * at a rewrite point. Tool schemas come first in every provider's cache order, so each change
   * of the offer is a cache miss of the whole prompt. Returns whether the offer changed.
   */
  holdSchemas(): boolean {
    const next = this.current();
    const before = this.held;
    this.held = next;
    return !before || before.length !== next.length || before.some((schema, i) => schema !== next[i]);
  }

  private current(): ToolSchema[] {
    return this.offer ? this.offer.schemas(this.list()) : this.list().map((tool) => tool.schema);
  }

  /** Runs one call. Never throws: every failure comes back as a result the model can act on. */
  async invoke(call: ToolCall, options: InvokeOptions = {}): Promise<ToolResult> {
    const result = await this.run(call, options);
    return { ...result, content: this.redact(result.content) };
  }

  private async run(call: ToolCall, options: InvokeOptions): Promise<ToolResult> {
    const tool = this.get(call.name);
    if (!tool) {
      const available = this.names();
      return failure(
        `Unknown tool "${call.name}". Available tools: ${available.length ? available.join(', ') : '(none)'}.`,
      );
    }

    if (tool.load) {
      try {
        await tool.load();
      } catch (error) {
        return failure(`${tool.name} could not be loaded: ${errorText(error)}`);
      }
    }

    const refusal = this.gate?.(tool);
    if (refusal !== undefined) return { content: `Denied: ${refusal}`, isError: true, status: 'denied' };

    const parsed = parseArguments(call.arguments);
    if (!parsed.ok) return failure(`Arguments for ${tool.name} are not valid JSON (${parsed.error}). Send a JSON object matching the tool's schema.`);
    const checked = await tool.checkArguments(withoutEmptyOptionals(parsed.value, tool.schema.parameters));
    if (!checked.ok) return failure(`Invalid arguments for ${tool.name}: ${checked.issues}. Expected schema: ${JSON.stringify(tool.schema.parameters)}`);
    const args = checked.data;
    // Asked again with the arguments: allowed-tools may limit a tool to some arguments (`bash(git diff:*)`).
    const argumentRefusal = this.gate?.(tool, args);
    if (argumentRefusal !== undefined) return { content: `Denied: ${argumentRefusal}`, isError: true, status: 'denied', args };

    const outer = options.signal ?? new AbortController().signal;
    if (outer.aborted) return { ...failure(`${tool.name} was cancelled by the user.`), args };
    let review: ToolResult['review'];
    if (tool.needsApproval && options.authorize) {
      const workspace = options.workspace ?? process.cwd();
      let preview;
      try {
        preview = await tool.preview(args, { signal: outer, workspace });
      } catch (error) {
        return { ...failure(`${tool.name} failed: ${errorText(error)}`), args };
      }
      if ('error' in preview) return { ...failure(preview.error), args };
      const decision = await options.authorize({ tool, args, call, preview, workspace, signal: outer, ...(options.history ? { history: options.history } : {}) });
      if (!decision.allowed) return { content: `Denied: ${decision.reason}`, isError: true, status: 'denied', args, ...(decision.review ? { review: decision.review } : {}) };
      review = decision.review;
    }
    if (!tool.needsApproval && options.authorize?.checksEveryCall) {
      const workspace = options.workspace ?? process.cwd();
      const decision = await options.authorize({ tool, args, call, preview: { summary: tool.name }, workspace, signal: outer, ...(options.history ? { history: options.history } : {}) });
      if (!decision.allowed) return { content: `Denied: ${decision.reason}`, isError: true, status: 'denied', args, ...(decision.review ? { review: decision.review } : {}) };
    }

    const timeoutMs = tool.timeoutMs ?? this.timeoutMs;
    const controller = new AbortController();
    const onAbort = () => controller.abort(outer.reason);
    outer.addEventListener('abort', onAbort, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const context: ToolContext = { signal: controller.signal, workspace: options.workspace ?? process.cwd() };
    const { authorize } = options;
    if (authorize) {
      context.authorizeFollowUp = async (next) => {
        const preview = await tool.preview(next, context);
        if ('error' in preview) return { allowed: false, reason: preview.error };
        return authorize({ tool, args: next, call, preview, workspace: context.workspace, signal: outer, ...(options.history ? { history: options.history } : {}) });
      };
      context.authorizeAction = (action) => authorize({ ...action, call, workspace: context.workspace, signal: outer, ...(options.history ? { history: options.history } : {}) });
    }
    // Measured from here: the preview and the wait for the user's approval are not the tool's time.
    const started = performance.now();
    const ran = (result: ToolResult): ToolResult => ({ ...result, durationMs: Math.round(performance.now() - started), ...(review ? { review } : {}) });
    try {
      if (outer.aborted) throw new CallAborted();
      const deadline = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort(new Error('timeout'));
          reject(new CallTimedOut(timeoutMs));
        }, timeoutMs);
        controller.signal.addEventListener('abort', () => reject(outer.aborted ? new CallAborted() : new CallTimedOut(timeoutMs)), { once: true });
      });
      const output = await Promise.race([tool.execute(args, context), deadline]);
      const text = typeof output === 'string' ? output : output.output;
      const isError = typeof output === 'string' ? false : output.isError === true;
      const images = typeof output === 'string' ? undefined : output.images;
      const toolReferences = typeof output === 'string' ? undefined : output.toolReferences;
      // Redacted before the cap, so a cut never leaves part of a secret behind.
      const content = await this.capped(this.redact(text));
      return ran({ content, isError, status: isError ? 'error' : 'ok', args, ...(images?.length ? { images } : {}), ...(toolReferences?.length ? { toolReferences } : {}) });
    } catch (error) {
      if (error instanceof CallTimedOut) return ran({ ...failure(`${tool.name} timed out after ${timeoutMs} ms and was stopped.`), args });
      if (error instanceof CallAborted) return ran({ ...failure(`${tool.name} was cancelled by the user.`), args });
      return ran({ ...failure(`${tool.name} failed: ${errorText(error)}`), args });
    } finally {
      clearTimeout(timer);
      outer.removeEventListener('abort', onAbort);
    }
  }

  /** The result as the model sees it; what the cap leaves out is stored whole first. */
  private async capped(text: string): Promise<string> {
    const { text: shown, stored } = capText(text, this.maxOutputChars, { fresh: true });
    if (!stored) return shown;
    try {
      await this.outputs.put(stored.id, stored.text);
      return shown;
    } catch (error) {
      return `${shown}\n[the full output could not be saved (${errorText(error)}): read_output will not find ${stored.id}]`;
    }
  }
}

class CallTimedOut extends Error {
  constructor(readonly ms: number) {
    super(`timed out after ${ms} ms`);
  }
}

class CallAborted extends Error {}

function failure(content: string): ToolResult {
  return { content, isError: true, status: 'error' };
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string };

/** Empty arguments mean "no arguments" (several servers send "" for argument-less calls). */
export function parseArguments(raw: string): Parsed {
  if (raw.trim() === '') return { ok: true, value: {} };
  const parsed = parseJson(raw);
  if (!parsed.ok) return parsed;
  const { value } = parsed;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: `expected a JSON object, got ${value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value}` };
  }
  return { ok: true, value };
}
