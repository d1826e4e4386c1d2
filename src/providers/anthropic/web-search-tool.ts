import type { WebSearchTool20250305 } from '@anthropic-ai/sdk/resources/messages';
import type { ServerSearchOptions } from '../shared/server-search.js';

/**
 * Anthropic's web search tool (`web_search_20250305`, the version every model with web search
 * takes). The same object on every request of a session, so the tools stay a cached prefix.
 */
export function anthropicWebSearchTool(options: ServerSearchOptions): WebSearchTool20250305 {
  return {
    type: 'web_search_20250305',
    name: 'web_search',
    max_uses: Math.min(options.maxUses, options.maxSearches),
    ...(options.allowedDomains?.length ? { allowed_domains: options.allowedDomains } : {}),
    ...(options.blockedDomains?.length ? { blocked_domains: options.blockedDomains } : {}),
  };
}
