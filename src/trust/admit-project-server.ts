import type { ServerEntry } from '../mcp/server-spec.js';
import { decideTrust, type TrustRequest } from './decide-trust.js';
import { unallowedSecretUses } from './secret-uses.js';
import { serverQuestion } from './server-question.js';
import type { AskTrust } from './trust-question.js';
import type { TrustStore } from './trust-store.js';

export interface AdmitOptions {
  store: TrustStore;
  ask: AskTrust | undefined;
  /** --trust-project-mcp: start without asking (a key is still never sent unless allowed). */
  trustAll: boolean;
  /** `mcpPassEnv` from the user's config: server name → the key variables it may be sent. */
  passEnv: Readonly<Record<string, readonly string[]>>;
  userConfigFile: string;
}

export type Admission = { start: true } | { start: false; why: 'refused' | 'declined' | 'unasked'; reason: string };

/**
 * Whether a project's server entry starts. One that would send one of the user's keys (a
 * `${VAR}` whose name says key, token, secret, password) to where the repository chose is
 * refused unless the user allowed that variable for that server by name; otherwise the user's
 * answer to the full question (remembered per workspace), or --trust-project-mcp.
 */
export async function admitProjectServer(entry: ServerEntry, options: AdmitOptions): Promise<Admission> {
  const unallowed = unallowedSecretUses(entry.name, entry.spec, options.passEnv);
  if (unallowed.length) {
    const variables = [...new Set(unallowed.map((use) => use.variable))];
    const sends = unallowed.map((use) => `${use.variable} to ${use.destination} (${use.place})`).join(', ');
    const setting = JSON.stringify({ mcpPassEnv: { [entry.name]: variables } });
    return { start: false, why: 'refused', reason: `it would send your ${sends}; if that is intended, allow it in your user config (${options.userConfigFile}): ${setting}` };
  }
  if (options.trustAll) return { start: true };
  const approved = await decideTrust(options.store, serverTrustRequest(entry), options.ask);
  if (approved) return { start: true };
  if (approved === false) return { start: false, why: 'declined', reason: 'you declined it for this workspace' };
  return { start: false, why: 'unasked', reason: 'not approved' };
}

/** What approving a project server is filed under and bound to. */
export function serverTrustRequest(entry: ServerEntry): TrustRequest {
  return { key: `mcp:${entry.origin.file}#${entry.name}`, config: entry.spec, question: serverQuestion(entry) };
}
