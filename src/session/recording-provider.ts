import type { ModelRequest, Provider } from '../contracts/provider.js';

/**
 * The provider, telling `onRequest` about each request as it is sent (retries included), before
 * any of its reply is read. The session writer stores them; the loop knows nothing of this.
 */
export function recordingRequests(provider: Provider, onRequest: (request: ModelRequest) => void): Provider {
  return {
    name: provider.name,
    stream(request, signal) {
      onRequest(request);
      return provider.stream(request, signal);
    },
  };
}
