import { parseArgs } from 'node:util';

export interface CliArgs {
  command: 'run' | 'demo' | 'help' | 'version';
  prompt?: string;
  provider?: string;
  model?: string;
  baseUrl?: string;
  apiKey?: string;
  maxTurns?: number;
  /** US dollars a run may spend before it stops (exit 3). */
  maxCost?: number;
  temperature?: number;
  tools?: string[];
  yes: boolean;
  json: boolean;
  cwd?: string;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export const HELP = `vibe-agent — a coding agent for the terminal

Usage:
  vibe-agent "prompt"            run one task and print the answer
  vibe-agent -p "prompt"         the same
  vibe-agent demo                the course's four tasks (offline on a scripted model if none is configured)

Options:
  --provider NAME      openai (default), deepseek, qwen, moonshot, zhipu, openrouter, groq, mistral, google (or gemini), ollama, vllm, lmstudio
  --model NAME         model name (or VIBE_MODEL)
  --base-url URL       any OpenAI-compatible endpoint (or OPENAI_BASE_URL)
  --max-turns N        model requests allowed with tools (default 50)
  --max-cost USD       stop once the run has cost more than this (list prices; models with a known price)
  --temperature T      sampling temperature (default 0)
  --tools a,b,c        tool set by name; "course" = current_time, calculator, fetch_url
  --cwd DIR            workspace directory (default: the current directory)
  --yes, -y            approve every tool call
  --json               one JSON event per line on stdout; the last is {"type":"stop",...}
  --version, -v        print the version
  --help, -h           this help

Environment: OPENAI_API_KEY, OPENAI_BASE_URL, VIBE_MODEL (and each provider's key, e.g. DEEPSEEK_API_KEY, GEMINI_API_KEY).
Exit codes: 0 answered, 1 provider error, 2 usage or configuration error, 3 stopped by a brake, 130 aborted.`;

export function parseCliArgs(argv: string[]): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
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
        temperature: { type: 'string' },
        tools: { type: 'string' },
        cwd: { type: 'string' },
        yes: { type: 'boolean', short: 'y', default: false },
        json: { type: 'boolean', default: false },
        version: { type: 'boolean', short: 'v', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\nRun "vibe-agent --help" for the options.`);
  }
  const { values, positionals } = parsed;
  const args: CliArgs = { command: 'run', yes: values.yes ?? false, json: values.json ?? false };
  if (values.help) return { ...args, command: 'help' };
  if (values.version) return { ...args, command: 'version' };
  if (positionals[0] === 'demo') {
    args.command = 'demo';
    positionals.shift();
  }
  if (values.prompt !== undefined && positionals.length) throw new UsageError('Give the prompt either with -p or as an argument, not both.');
  const prompt = values.prompt ?? (positionals.length ? positionals.join(' ') : undefined);
  if (prompt !== undefined) args.prompt = prompt;
  if (values.provider) args.provider = values.provider;
  if (values.model) args.model = values.model;
  if (values['base-url']) args.baseUrl = values['base-url'];
  if (values['api-key']) args.apiKey = values['api-key'];
  if (values.cwd) args.cwd = values.cwd;
  if (values['max-turns'] !== undefined) args.maxTurns = positiveInteger('--max-turns', values['max-turns']);
  if (values['max-cost'] !== undefined) {
    const usd = Number(values['max-cost'].replace(/^\$/, ''));
    if (!Number.isFinite(usd) || usd <= 0) throw new UsageError(`--max-cost must be a positive amount of US dollars, e.g. 0.50, got "${values['max-cost']}".`);
    args.maxCost = usd;
  }
  if (values.temperature !== undefined) {
    const t = Number(values.temperature);
    if (!Number.isFinite(t) || t < 0 || t > 2) throw new UsageError(`--temperature must be a number from 0 to 2, got "${values.temperature}".`);
    args.temperature = t;
  }
  if (values.tools !== undefined) args.tools = values.tools.split(',').map((name) => name.trim()).filter(Boolean);
  return args;
}

function positiveInteger(flag: string, raw: string): number {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} must be a whole number of at least 1, got "${raw}".`);
  return n;
}
