import { decideTrust } from '../../../trust/decide-trust.js';
import { landChecksQuestion } from '../../../trust/land-checks-question.js';
import type { AskTrust } from '../../../trust/trust-question.js';
import { TrustStore } from '../../../trust/trust-store.js';
import type { CliArgs } from '../../args/cli-args.js';
import { loadConfig, readProjectConfig, userConfigPath } from '../../settings/config.js';
import { resolveSettings } from '../../setup/resolve-settings.js';

/** The checks a land runs and where they came from, in words for the line that announces them. */
export type LandChecks = { commands: string[]; from: string; notes: string[] } | { refused: string };

export interface LandCheckOptions {
  /** `--check CMD`, in order: these and nothing else. */
  given: readonly string[];
  /** `--no-check`: none, said so. */
  none: boolean;
  /** The checkout, whose project config (and the user's) may name `landChecks`. */
  repo: string;
  env: NodeJS.ProcessEnv;
  /** Asks the trust question on a terminal; undefined without one. */
  ask: AskTrust | undefined;
}

/**
 * `--check` beats config; config is the project's `landChecks` (once approved, as its hooks are: the
 * same trust store and question path) over the user's. A project list nobody has approved, with no
 * terminal to ask on, refuses the land rather than landing unchecked: the caller applies nothing.
 */
export async function landChecks(args: CliArgs, options: LandCheckOptions): Promise<LandChecks> {
  if (options.none) return { commands: [], from: '--no-check', notes: [] };
  if (options.given.length) return { commands: [...options.given], from: '--check', notes: [] };
  const notes: string[] = [];
  const warn = (message: string) => notes.push(`warning: ${message}`);
  const project = await readProjectConfig(options.repo, warn);
  const settings = resolveSettings(args, options.env, await loadConfig(options.repo, options.env, warn, project)).values;
  const userChecks = settings.landChecks;
  const fromUser = { commands: userChecks, from: `your config (${userConfigPath(options.env)})`, notes };
  const projectChecks = project.config.landChecks ?? [];
  if (!projectChecks.length) return userChecks.length ? fromUser : { commands: [], from: 'none', notes };
  if (settings.trustProjectMcp) return { commands: projectChecks, from: `${project.file} (the project's; trustProjectMcp runs it unasked)`, notes };
  const request = { key: `land-checks:${project.file}`, config: projectChecks, question: landChecksQuestion(project.file, projectChecks) };
  const approved = await decideTrust(new TrustStore(options.repo, options.env), request, options.ask);
  if (approved) return { commands: projectChecks, from: `${project.file} (the project's, approved for this workspace)`, notes };
  if (approved === false) {
    notes.push(`the land checks in ${project.file} were not run: you declined them for this workspace.`);
    return userChecks.length ? fromUser : { commands: [], from: 'none', notes };
  }
  return {
    refused: `${project.file} names land checks (${projectChecks.join('; ')}), and they run only once you approve them for this workspace: run this land in a terminal to be asked, or pass --trust-project-mcp (or set "trustProjectMcp": true in your user config); or give --check CMD, or --no-check. Nothing was applied.`,
  };
}

/** The line a land prints before its checks: which run, and where they came from. */
export function checksLine(checks: { commands: string[]; from: string }): string {
  const count = checks.commands.length;
  if (checks.from === '--no-check') return 'No checks run: --no-check.';
  if (!count) return 'No checks run: none given (--check CMD) and none configured (landChecks in your config or the project\'s .vibe-agent/config.json).';
  const many = `${count} check${count === 1 ? '' : 's'}`;
  return checks.from === '--check' ? `Running ${many} given with --check.` : `Running ${many} from ${checks.from}.`;
}
