import type { TrustRequest } from '../trust/decide-trust.js';
import type { FoundServer } from './find-servers.js';

/** What approving a language server from the project is filed under, bound to, and asked as. */
export function serverTrust(found: FoundServer): TrustRequest {
  const { spec } = found;
  const where = spec.origin === 'project' ? 'the project config' : 'the workspace';
  return {
    key: `lsp:${spec.origin}#${spec.name}`,
    config: { executable: found.executable, args: spec.args, initializationOptions: spec.initializationOptions ?? null, settings: spec.settings ?? null },
    question: {
      heading: `Start the language server "${spec.name}" from ${where}?`,
      facts: [
        { label: 'program', value: found.executable, warning: 'it runs code from this repository' },
        ...(spec.args.length ? [{ label: 'args', value: spec.args.join(' ') }] : []),
        { label: 'files', value: spec.extensions.join(' ') },
      ],
    },
  };
}
