import { decideLandChecks, type ConfiguredChecks, type UnapprovedChecks } from '../../../background/land-checks.js';
import type { AskTrust } from '../../../trust/trust-question.js';
import type { CliArgs } from '../../args/cli-args.js';
import { loadConfig, readProjectConfig, userConfigPath } from '../../settings/config.js';
import { resolveSettings } from '../../setup/resolve-settings.js';

export { checksLine } from '../../../background/land-checks.js';

/** The checks of a land, or why it is refused. */
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

/** The checks of a land run with these settings: decideLandChecks over the config `args` and the checkout give. */
export async function landChecks(args: CliArgs, options: LandCheckOptions): Promise<LandChecks> {
  const checks = await decideLandChecks({ given: options.given, none: options.none, configured: () => configuredChecks(args, options.repo, options.env) }, options.repo, options.env, options.ask);
  return 'unapproved' in checks ? { refused: unapprovedChecksReason(checks.unapproved) } : checks;
}

/** Why a land with the project's checks unapproved and no one to ask is refused, and how to approve them. */
export function unapprovedChecksReason({ file, commands }: UnapprovedChecks): string {
  return `${file} names land checks (${commands.join('; ')}), and they run only once you approve them for this workspace: run this land in a terminal to be asked, or pass --trust-project-mcp (or set "trustProjectMcp": true in your user config); or give --check CMD, or --no-check. Nothing was applied.`;
}

/** The user's and the checkout's `landChecks`, and whether `trustProjectMcp` (flag or user config) runs the project's unasked. */
export async function configuredChecks(args: CliArgs, repo: string, env: NodeJS.ProcessEnv): Promise<ConfiguredChecks> {
  const notes: string[] = [];
  const warn = (message: string) => notes.push(`warning: ${message}`);
  const project = await readProjectConfig(repo, warn);
  const settings = resolveSettings(args, env, await loadConfig(repo, env, warn, project)).values;
  const projectChecks = project.config.landChecks ?? [];
  return {
    user: settings.landChecks,
    userFile: userConfigPath(env),
    ...(projectChecks.length ? { project: { file: project.file, commands: projectChecks } } : {}),
    trustProject: settings.trustProjectMcp,
    notes,
  };
}
