import type { HookSource } from '../hooks/foreign-hooks.js';
import { variableReferences } from '../mcp/expand-variables.js';
import { isSecretVariable } from './secret-variables.js';
import type { TrustFact, TrustQuestion } from './trust-question.js';

/** The question for a project's hooks file: every command, with the event (and tools) it runs at. */
export function hooksQuestion(source: HookSource): TrustQuestion {
  const facts: TrustFact[] = [];
  for (const [event, groups] of Object.entries(source.hooks)) {
    for (const group of groups ?? []) {
      for (const hook of group.hooks) {
        const secrets = [...new Set(variableReferences(hook.command))].filter(isSecretVariable);
        facts.push({
          label: group.matcher ? `${event} (tools matching ${group.matcher})` : event,
          value: hook.command,
          ...(secrets.length ? { warning: `reads your ${secrets.join(', ')}` } : {}),
        });
      }
    }
  }
  return { heading: `Run the hooks of ${source.file} (project)? They run as you, with your environment:`, facts };
}
