import { parseArgs } from 'node:util';
import { PERMISSION_MODES, type PermissionMode } from '../permissions/permission-policy.js';
import { normalizeResumeFlag } from './session-args.js';

export interface CliArgs {
  command: 'run' | 'demo' | 'help' | 'version' | 'sessions' | 'memory';
  prompt?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  maxTurns?: number;
  /** US dollars a run may spend before it stops (exit 3). */
  maxCost?: number;
  /** Extended thinking budget in tokens (anthropic, google). */
  thinking?: number;
  temperature?: number;
  tools?: string[];
  contextWindow?: number;
  yes: boolean;
  json: boolean;
  cwd?: string;
  permissionMode?: PermissionMode;
  /** Directories beyond the workspace the file tools may use. */
  addDirs: string[];
  allowSecrets: boolean;
  /** How tools reach the model: native tool calls, or JSON described in the prompt. */
  protocol?: Protocol;
  /** `demo --compare-protocols`: run the demo both ways and print a table. */
  compareProtocols?: boolean;
  /** --continue: resume the latest session of this workspace. */
  continue?: boolean;
  /** --resume [id]: an id or id prefix; "" when given without one (pick from the list). */
  resume?: string;
  /** --no-session: do not record this run. */
  noSession?: boolean;
  /** `memory` subcommand words (e.g. ["edit"], ["forget", "text"]) and its --user flag. */
  memoryArgs?: string[];
  user?: boolean;
}

export const PROTOCOLS = ['native', 'prompt-json'] as const;
export type Protocol = (typeof PROTOCOLS)[number];

export class UsageError extends Error {
  override name = 'UsageError';
}

export const HELP = `vibe-agent — a coding agent for the terminal

Usage:
  vibe-agent "prompt"            run one task and print the answer
  vibe-agent -p "prompt"         the same (--prompt "prompt")
  vibe-agent                     an interactive session (in a terminal); with stdin piped, reads the prompt from it
  vibe-agent demo                the course's four tasks (offline on a scripted model if none is configured)
  vibe-agent demo --compare-protocols   the four tasks with native tool calls and with prompt-JSON, side by side
  vibe-agent sessions            this workspace's saved sessions, newest first
  vibe-agent memory              show the memory files; memory edit [--user]; memory forget TEXT [--user]

Options:
  --provider NAME      openai (default), anthropic, google (or gemini), deepseek, qwen, moonshot, zhipu, openrouter,
                       groq, mistral, ollama, vllm, lmstudio
  --model NAME, -m     model name (or VIBE_MODEL)
  --base-url URL       any OpenAI-compatible endpoint (or OPENAI_BASE_URL)
  --api-key KEY        the provider's key (prefer its environment variable: other users can see flags in ps)
  --max-turns N        model requests allowed with tools (default 50)
  --max-cost USD       stop once the run has cost more than this (list prices; models with a known price)
  --temperature T      sampling temperature (default 0)
  --thinking TOKENS    extended thinking with this budget (anthropic, google), shown dimmed
  --tools a,b,c        tool set by name (default: read_file, write_file, edit_file, list_files, grep, bash,
                       fetch_url, remember); groups: "coding" (the file, search and shell tools), "course"
                       (current_time, calculator, fetch_url)
  --context-window N   the model's context window in tokens (default: known per model, 8192 for local servers)
  --cwd DIR            workspace directory (default: the current directory)
  --permission-mode M  ask (default: confirm every write, edit and shell call), auto-edit (file edits
                       run, shell asks) or yolo (nothing asks)
  --yes, -y            the same as --permission-mode yolo
  --add-dir DIR        let the file tools use DIR too (repeatable)
  --allow-secrets      let the file tools read .env files, keys and credentials
  --protocol P         native (default): the API's tool calls; prompt-json: tools described in the prompt, JSON replies
  --continue, -c       continue the latest session of this workspace
  --resume [ID]        continue a chosen session (id or prefix; without one, list them)
  --no-session         do not save this run as a session
  --json               one JSON event per line on stdout; the last is {"type":"stop",...}
  --version, -v        print the version
  --help, -h           this help

Environment: OPENAI_API_KEY, OPENAI_BASE_URL, VIBE_MODEL (and each provider's key, e.g. DEEPSEEK_API_KEY;
  ANTHROPIC_API_KEY for --provider anthropic, GEMINI_API_KEY for --provider google).
Exit codes: 0 answered, 1 provider error, 2 usage or configuration error, 3 stopped by a brake, 130 aborted.`;

export function parseCliArgs(argv: string[]): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: normalizeResumeFlag(argv),
      allowPositionals: true,
      strict: true,
      options: {
        prompt: { type: 'string', short: 'p' },
        provider: { type: 'string' },
        model: { type: 'string', short: 'm' },
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        'max-turns': { type: 'string' },
        'max-cost': { type: 'string' },
        thinking: { type: 'string' },
        temperature: { type: 'string' },
        tools: { type: 'string' },
        'context-window': { type: 'string' },
        cwd: { type: 'string' },
        protocol: { type: 'string' },
        'compare-protocols': { type: 'boolean', default: false },
        yes: { type: 'boolean', short: 'y', default: false },
        'permission-mode': { type: 'string' },
        'add-dir': { type: 'string', multiple: true },
        'allow-secrets': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        continue: { type: 'boolean', short: 'c', default: false },
        resume: { type: 'string' },
        'no-session': { type: 'boolean', default: false },
        user: { type: 'boolean', default: false },
        version: { type: 'boolean', short: 'v', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nRun "vibe-agent --help" for the options.`);
  }
  const { values, positionals } = parsed;
  const args: CliArgs = { command: 'run', yes: values.yes ?? false, json: values.json ?? false, addDirs: values['add-dir'] ?? [], allowSecrets: values['allow-secrets'] ?? false };
  if (values.help) return { ...args, command: 'help' };
  if (values.version) return { ...args, command: 'version' };
  if (positionals[0] === 'demo') {
    args.command = 'demo';
    positionals.shift();
  }
  if (positionals[0] === 'sessions' || positionals[0] === 'memory') {
    args.command = positionals[0];
    if (args.command === 'memory') args.memoryArgs = positionals.slice(1);
    else if (positionals.length > 1) throw new UsageError('"vibe-agent sessions" takes no arguments (to ask about sessions, quote the prompt or use -p).');
    if (values.user) args.user = true;
    if (values.cwd) args.cwd = values.cwd;
    return args;
  }
  if (values.user) throw new UsageError('--user only applies to "vibe-agent memory".');
  if (values.continue) args.continue = true;
  if (values.resume !== undefined) args.resume = values.resume;
  if (values['no-session']) args.noSession = true;
  if (values.prompt !== undefined && positionals.length) throw new UsageError('Give the prompt either with -p or as an argument, not both.');
  const prompt = values.prompt ?? (positionals.length ? positionals.join(' ') : undefined);
  if (prompt !== undefined && args.command === 'demo') throw new UsageError(`"vibe-agent demo" runs its own four tasks and takes no prompt; to run "${prompt}", leave out "demo".`);
  if (prompt !== undefined) args.prompt = prompt;
  if (values.provider) args.provider = values.provider;
  if (values.model) args.model = values.model;
  if (values['base-url']) args.baseUrl = values['base-url'];
  if (values['api-key']) args.apiKey = values['api-key'];
  if (values.cwd) args.cwd = values.cwd;
  if (values['max-turns'] !== undefined) args.maxTurns = positiveInteger('--max-turns', values['max-turns']);
  if (values.thinking !== undefined) {
    args.thinking = positiveInteger('--thinking', values.thinking);
    if (args.thinking < 1024) throw new UsageError(`--thinking is a budget in tokens, at least 1024 (Anthropic's minimum), got ${args.thinking}.`);
  }
  if (values['max-cost'] !== undefined) {
    const usd = Number(values['max-cost'].replace(/^\$/, ''));
    if (!Number.isFinite(usd) || usd <= 0) throw new UsageError(`--max-cost must be a positive amount of US dollars, e.g. 0.50, got "${values['max-cost']}".`);
    args.maxCost = usd;
  }
  if (values.temperature !== undefined) {
    const t = values.temperature.trim() === '' ? Number.NaN : Number(values.temperature);
    if (!Number.isFinite(t) || t < 0 || t > 2) throw new UsageError(`--temperature must be a number from 0 to 2, got "${values.temperature}".`);
    args.temperature = t;
  }
  const mode = values['permission-mode'];
  if (mode !== undefined) {
    if (!(PERMISSION_MODES as readonly string[]).includes(mode)) throw new UsageError(`--permission-mode must be one of ${PERMISSION_MODES.join(', ')}, got "${mode}".`);
    args.permissionMode = mode as PermissionMode;
  }
  if (args.yes && args.permissionMode && args.permissionMode !== 'yolo') throw new UsageError(`--yes means --permission-mode yolo; it cannot be combined with --permission-mode ${args.permissionMode}.`);
  if (values.protocol !== undefined) {
    if (!(PROTOCOLS as readonly string[]).includes(values.protocol)) throw new UsageError(`--protocol must be one of ${PROTOCOLS.join(', ')}, got "${values.protocol}".`);
    args.protocol = values.protocol as Protocol;
  }
  if (values['compare-protocols']) {
    if (args.command !== 'demo') throw new UsageError('--compare-protocols goes with the demo: vibe-agent demo --compare-protocols');
    if (args.protocol) throw new UsageError('--compare-protocols runs both protocols; leave out --protocol.');
    args.compareProtocols = true;
  }
  if (values['context-window'] !== undefined) {
    args.contextWindow = positiveInteger('--context-window', values['context-window']);
    if (args.contextWindow < 1024) throw new UsageError(`--context-window must be at least 1024 tokens, got ${args.contextWindow}.`);
  }
  if (values.tools !== undefined) args.tools = values.tools.split(',').map((name) => name.trim()).filter(Boolean);
  return args;
}

function positiveInteger(flag: string, raw: string): number {
  // Number() would take "" as 0 and "0x10" as 16.
  const n = /^\s*\d+\s*$/.test(raw) ? Number(raw) : Number.NaN;
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a whole number of at least 1, got "${raw}".`);
  return n;
}
