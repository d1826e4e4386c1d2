import type { Provider } from '../../contracts/provider.js';
import { createProvider, type ResolvedProvider } from '../../providers/create-provider.js';
import { resolveCliProvider } from './provider-problem-text.js';
import { costOf } from '../../providers/pricing.js';
import type { SideModel } from '../../side-model/ask-side-model.js';
import type { Settings } from '../settings/settings.js';

/**
 * The auto mode's reviewer: the `reviewer` setting's model, on its provider (default the session's,
 * through the same provider object), else the session's own model. Another provider gets its own
 * key and endpoint from its variables, and is set up at once when the run starts in auto mode (a
 * missing key is an error then), else at the first review (an error then refuses the call).
 */
export async function createReviewer(settings: Pick<Settings, 'reviewer' | 'reviewerTimeoutMs' | 'permissionMode'>, session: { resolved: ResolvedProvider; provider: Provider }, env: NodeJS.ProcessEnv): Promise<SideModel> {
  const wanted = settings.reviewer;
  const model = wanted?.model ?? session.resolved.model;
  const cost = (usage: Parameters<typeof costOf>[1]) => costOf(model, usage);
  const own = wanted?.provider === undefined || wanted.provider === session.resolved.preset.name;
  if (own) return { provider: session.provider, model, cost, timeoutMs: settings.reviewerTimeoutMs };
  const make = () => createProvider(resolveCliProvider({ provider: wanted.provider!, model, env }));
  if (settings.permissionMode === 'auto') return { provider: await make(), model, cost, timeoutMs: settings.reviewerTimeoutMs };
  return { provider: lazyProvider(wanted.provider!, make), model, cost, timeoutMs: settings.reviewerTimeoutMs };
}

function lazyProvider(name: string, make: () => Promise<Provider>): Provider {
  let made: Promise<Provider> | undefined;
  return {
    name,
    async *stream(request, signal) {
      made ??= make();
      yield* (await made).stream(request, signal);
    },
  };
}
