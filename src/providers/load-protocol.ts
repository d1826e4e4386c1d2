import type { Provider } from '../contracts/provider.js';
import type { ToolProtocol } from './with-protocol.js';

/** withProtocol, with the prompt-JSON adapter loaded only when a run asks for it (--protocol prompt-json). */
export async function loadProtocol(provider: Provider, protocol: ToolProtocol = 'native'): Promise<Provider> {
  if (protocol !== 'prompt-json') return provider;
  const { withProtocol } = await import('./with-protocol.js');
  return withProtocol(provider, protocol);
}
