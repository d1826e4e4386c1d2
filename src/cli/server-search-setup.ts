import { ConfigError, serverSearchWire, type ResolvedProvider } from '../providers/create-provider.js';
import { parseServerSearchConfig, type ServerSearchOptions } from '../providers/shared/server-search.js';
import { DEFAULT_MAX_SEARCHES } from '../tools/builtin/web-search/search-service.js';
import { parseRule, ruleCovers, type RuleTarget } from '../permissions/permission-rule.js';
import type { Settings } from './settings.js';

/** The server-side search as a permission rule sees it: the web_search tool, a network call. */
const WEB_SEARCH: RuleTarget = { name: 'web_search', permission: { category: 'network', aliases: ['search'] } };

/**
 * The provider's own web search, when the user's config says `"webSearch": { "service": "provider" }`
 * (a user-only setting: a project cannot turn it on). The server runs the queries without this
 * process seeing them first, so no call can be asked about: enabling it is the user's consent, a
 * deny rule naming web_search (with or without a pattern, which cannot be checked) turns it off,
 * and so does a --tools list without web_search.
 */
export function serverSearchOptions(settings: Settings, resolved: ResolvedProvider, warn: (message: string) => void): ServerSearchOptions | undefined {
  const value = settings.webSearch;
  if (value?.service !== 'provider') return undefined;
  const parsed = parseServerSearchConfig(value, DEFAULT_MAX_SEARCHES);
  if (!parsed.ok) throw new ConfigError(parsed.reason);
  if (settings.tools !== undefined && !settings.tools.includes('web_search')) return undefined;
  if (!serverSearchWire(resolved)) {
    const wire = resolved.preset.protocol === undefined || resolved.preset.protocol === 'openai' ? ' on the Chat Completions wire' : '';
    throw new ConfigError(
      `"webSearch": { "service": "provider" } uses the provider's own web search, and ${resolved.preset.name}${wire} has none (Anthropic, OpenAI on the Responses wire and Gemini do). ` +
        'Name a search service instead, e.g. "webSearch": { "service": "searxng", "url": "http://127.0.0.1:8888" }.',
    );
  }
  const denied = settings.permissions.deny.map(parseRule).find((rule) => ruleCovers(rule, WEB_SEARCH, 'deny'));
  if (denied) {
    warn(`the provider's web search is off: the rule "${denied.text}" in permissions.deny covers web_search, and a server-side search cannot be checked query by query.`);
    return undefined;
  }
  return parsed.options;
}
