import { ConfigError, resolveProvider, type ProviderSettings, type ResolvedProvider } from '../../providers/create-provider.js';
import { blockedPortAdvice } from '../../providers/shared/blocked-ports.js';
import { keyVariables, type BaseUrlSource, type ProviderSetupProblem } from '../../providers/provider-setup-problem.js';

/** resolveProvider, with a problem worded in the CLI's terms (its flags, its variables, its commands). */
export function resolveCliProvider(settings: ProviderSettings): ResolvedProvider {
  try {
    return resolveProvider(settings);
  } catch (error) {
    if (error instanceof ConfigError && error.problem) throw new ConfigError(providerProblemText(error.problem), error.problem);
    throw error;
  }
}

const SOURCE_NAMES: Record<Exclude<BaseUrlSource, 'environment'>, string> = { setting: '--base-url', config: '"baseUrl" in the config file', preset: 'the base URL' };

export function providerProblemText(problem: ProviderSetupProblem): string {
  switch (problem.kind) {
    case 'not_set_up':
      return setupMessage(problem);
    case 'bad_base_url': {
      const source = problem.source === 'environment' ? (problem.variable ?? 'the base URL') : SOURCE_NAMES[problem.source];
      return problem.blockedPort ? `${source} ${problem.url}: ${blockedPortAdvice(problem.port)}` : `${source} must be an http:// or https:// URL, e.g. http://127.0.0.1:11434/v1, got "${problem.url}".`;
    }
    case 'thinking_unsupported':
      return `--thinking sets a thinking budget for --provider anthropic or google. With ${problem.preset}, thinking comes with the model you choose (e.g. deepseek-reasoner, o4-mini).`;
    case 'wire_unsupported':
      return `--wire chooses between OpenAI's Chat Completions and Responses wires; ${problem.preset} speaks its own API.`;
  }
}

/** What to set: only what is missing (a key or base URL already in the environment is not asked for again). */
function setupMessage(problem: Extract<ProviderSetupProblem, { kind: 'not_set_up' }>): string {
  const { preset, baseUrlFromEnv } = problem;
  const missing: string[] = [];
  if (problem.missingKey) missing.push(`${keyVariables(preset)} (your ${preset.name} API key${baseUrlFromEnv ? `; if the server at ${preset.baseUrlVariable} takes none, any value works, e.g. ${preset.keyVariable}=local` : ''})`);
  if (problem.missingModel) missing.push(`VIBE_MODEL or --model (the model name, e.g. ${problem.exampleModel})`);
  const keyLine: Array<[string, string]> = !problem.missingKey || !preset.keyVariable
    ? []
    : baseUrlFromEnv
      ? [[`export ${preset.keyVariable}=local`, 'any value, for a server that takes no key']]
      : [[`export ${preset.keyVariable}=sk-...`, '']];
  const modelLine: Array<[string, string]> = problem.missingModel ? [[`export VIBE_MODEL=${problem.exampleModel}`, 'or pass --model']] : [];
  const baseUrlLine: Array<[string, string]> = baseUrlFromEnv
    ? []
    : preset.baseUrlVariable
      ? [[`export ${preset.baseUrlVariable}=http://...`, 'optional: another endpoint (or --base-url)']]
      : [[`# optional: another endpoint with --base-url URL (${preset.name} reads no base-URL variable)`, '']];
  const examples = [...keyLine, ...modelLine, ...baseUrlLine];
  const width = Math.max(...examples.map(([command, comment]) => (comment ? command.length : 0)));
  const exampleLines = examples.map(([command, comment]) => `  ${comment ? `${command.padEnd(width)}  # ${comment}` : command}`);
  return [
    `Provider "${preset.name}" is not set up. Missing: ${missing.join('; ')}.`,
    '',
    'Set, for example:',
    ...exampleLines,
    ...(preset.local || baseUrlFromEnv
      ? []
      : ['', 'Or use a local Ollama (no key needed):', '  ollama pull qwen2.5-coder && vibe-agent --provider ollama --model qwen2.5-coder "your task"']),
    '',
    'Or try the offline demo: vibe-agent demo',
  ].join('\n');
}
