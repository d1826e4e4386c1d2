import { decideTrust } from '../trust/decide-trust.js';
import { landChecksQuestion } from '../trust/land-checks-question.js';
import type { AskTrust } from '../trust/trust-question.js';
import { TrustStore } from '../trust/trust-store.js';

/**
 * The checks a land runs and where they came from, in words for the line that announces them; or the
 * project's list that nobody has approved, which refuses the land (the front end says how to approve it).
 */
export type LandChecks = { commands: string[]; from: string; notes: string[] } | { unapproved: UnapprovedChecks };

export interface UnapprovedChecks {
  file: string;
  commands: string[];
}

/** The `landChecks` the configuration names, as a front end read them (the CLI from its settings, the server from its own). */
export interface ConfiguredChecks {
  /** The user's own list, and the file it is in. */
  user: string[];
  userFile: string;
  /** The checkout's `.vibe-agent/config.json` list, when it names one. */
  project?: { file: string; commands: string[] };
  /** `trustProjectMcp`: the project's list runs unasked. */
  trustProject: boolean;
  /** Warnings met while reading the configuration. */
  notes: string[];
}

export interface LandCheckSource {
  /** `--check CMD`, in order: these and nothing else. */
  given?: readonly string[];
  /** `--no-check`: none, said so. */
  none?: boolean;
  /** Read only when neither of the above decides. */
  configured: () => Promise<ConfiguredChecks>;
}

/**
 * Given checks beat config; config is the project's `landChecks` (once approved, as its hooks are: the
 * same trust store and question path) over the user's. A project list nobody has approved, with no
 * one to ask (`ask` undefined), refuses the land rather than landing unchecked: the caller applies nothing.
 */
export async function decideLandChecks(source: LandCheckSource, repo: string, env: NodeJS.ProcessEnv, ask: AskTrust | undefined): Promise<LandChecks> {
  if (source.none) return { commands: [], from: '--no-check', notes: [] };
  if (source.given?.length) return { commands: [...source.given], from: '--check', notes: [] };
  const config = await source.configured();
  const notes = [...config.notes];
  const fromUser = { commands: config.user, from: `your config (${config.userFile})`, notes };
  const project = config.project;
  if (!project?.commands.length) return config.user.length ? fromUser : { commands: [], from: 'none', notes };
  if (config.trustProject) return { commands: project.commands, from: `${project.file} (the project's; trustProjectMcp runs it unasked)`, notes };
  const request = { key: `land-checks:${project.file}`, config: project.commands, question: landChecksQuestion(project.file, project.commands) };
  const approved = await decideTrust(new TrustStore(repo, env), request, ask);
  if (approved) return { commands: project.commands, from: `${project.file} (the project's, approved for this workspace)`, notes };
  if (approved === false) {
    notes.push(`the land checks in ${project.file} were not run: you declined them for this workspace.`);
    return config.user.length ? fromUser : { commands: [], from: 'none', notes };
  }
  return { unapproved: { file: project.file, commands: project.commands } };
}

/** The line a land prints before its checks: which run, and where they came from. */
export function checksLine(checks: { commands: string[]; from: string }): string {
  const count = checks.commands.length;
  if (checks.from === '--no-check') return 'No checks run: --no-check.';
  if (!count) return 'No checks run: none given (--check CMD) and none configured (landChecks in your config or the project\'s .vibe-agent/config.json).';
  const many = `${count} check${count === 1 ? '' : 's'}`;
  return checks.from === '--check' ? `Running ${many} given with --check.` : `Running ${many} from ${checks.from}.`;
}
