import type { ServerEntry } from '../mcp/server-spec.js';
import { changesWhatRuns } from './env-that-runs.js';
import { secretUses } from './secret-uses.js';
import type { TrustFact, TrustQuestion } from './trust-question.js';

const FORMATS: Record<ServerEntry['origin']['format'], string> = {
  'vibe-agent': 'vibe-agent config',
  'claude-code': 'Claude Code .mcp.json',
  'gemini-cli': 'Gemini CLI settings',
  codex: 'Codex config.toml',
};

/**
 * The question for a project's MCP server: everything its entry runs or sends — the command and
 * its arguments, cwd, every env variable (those that change what runs flagged), the URL, every
 * header — and which of the user's keys a `${VAR}` would send where.
 */
export function serverQuestion(entry: ServerEntry): TrustQuestion {
  const { spec, origin } = entry;
  const facts: TrustFact[] = [];
  if (spec.transport === 'stdio') {
    facts.push({ label: 'runs', value: [spec.command, ...spec.args].map(shellWord).join(' ') });
    if (spec.cwd !== undefined) facts.push({ label: 'in', value: spec.cwd });
    for (const [name, value] of Object.entries(spec.env)) {
      facts.push({ label: `env ${name}`, value, ...(changesWhatRuns(name) ? { warning: 'changes what runs (code loaded first, or where programs and libraries come from)' } : {}) });
    }
  } else {
    facts.push({ label: 'connects to', value: `${spec.transport.toUpperCase()} ${spec.url}` });
    for (const [name, value] of Object.entries(spec.headers)) facts.push({ label: `header ${name}`, value });
  }
  for (const use of secretUses(spec)) facts.push({ label: `sends your ${use.variable}`, value: `to ${use.destination} (${use.place})`, warning: 'allowed by mcpPassEnv in your config' });
  return { heading: `Start the MCP server "${entry.name}" from ${origin.file} (project, ${FORMATS[origin.format]})?`, facts };
}

/** A word as a POSIX shell would need it quoted; what it holds is made visible when rendered. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}
