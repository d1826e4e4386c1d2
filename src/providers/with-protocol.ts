import type { Provider } from '../contracts/provider.js';
import { promptJsonProvider } from './prompt-json/prompt-json-provider.js';

/** How tools reach the model: the API's native tool calls, or JSON described in the prompt. */
export type ToolProtocol = 'native' | 'prompt-json';

export function withProtocol(provider: Provider, protocol: ToolProtocol = 'native'): Provider {
  return protocol === 'prompt-json' ? promptJsonProvider(provider) : provider;
}
