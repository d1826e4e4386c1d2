import type { Tool } from '../../../contracts/tool.js';
import { DOMAIN_PREFIX, matchesRule, parseRule, ruleCovers, type PermissionRule } from '../../../permissions/permission-rule.js';
import { normalizeUrl } from '../fetch/normalize-url.js';
import type { SearchHit } from './search-service.js';

/** The permission rules as written in the config (`permissions.allow` / `permissions.deny`). */
export interface PermissionRuleTexts {
  allow?: readonly string[];
  deny?: readonly string[];
}

/**
 * `web_search(domain:…)` rules, which hold for the results rather than the query: a deny rule drops
 * results from that domain, allow rules (when there are any) keep only results from theirs. They are
 * matched by the permission rules' own matcher, the result's URL taken as a `web-url` subject as
 * `fetch_url(domain:…)` takes its URL.
 */
export interface DomainRules {
  /** Domains to hand to a service that can filter; the filter here holds whatever the service does. */
  includeDomains: string[];
  excludeDomains: string[];
  /** The hits the rules let through, and how many they dropped. */
  filter(hits: readonly SearchHit[], workspace: string): { kept: SearchHit[]; dropped: number };
}

export function domainRules(tool: Pick<Tool, 'name' | 'permission'>, rules: PermissionRuleTexts = {}): DomainRules {
  const forResults = (texts: readonly string[] | undefined, use: 'allow' | 'deny') =>
    (texts ?? []).map(parseRule).filter((rule) => rule.pattern?.startsWith(DOMAIN_PREFIX) && ruleCovers(rule, tool, use));
  const allow = forResults(rules.allow, 'allow');
  const deny = forResults(rules.deny, 'deny');
  const target = { name: tool.name, permission: { ...tool.permission, subject: ({ url }: { url: string }) => ({ kind: 'web-url' as const, value: url }) } } as Pick<Tool, 'name' | 'permission'>;
  return {
    includeDomains: serviceDomains(allow, true),
    excludeDomains: serviceDomains(deny, false),
    filter(hits, workspace) {
      const kept = hits.filter((hit) => {
        const url = normalizeUrl(hit.url);
        // A result with no usable URL cannot be checked against a domain rule: with rules in force, it goes.
        if (!url.ok) return allow.length === 0 && deny.length === 0;
        const args = { url: url.url.href };
        if (deny.some((rule) => matchesRule(rule, target, args, workspace, 'deny'))) return false;
        return allow.length === 0 || allow.some((rule) => matchesRule(rule, target, args, workspace, 'allow'));
      });
      return { kept, dropped: hits.length - kept.length };
    },
  };
}

/**
 * The rules' domains as a service takes them (a domain and everything under it; parseRule lets a
 * star in only as a leading `*.`). `*.example.com` widens to `example.com` for an include list,
 * whose results are filtered again here, but stays out of an exclude list, where it would drop
 * results no rule denies.
 */
function serviceDomains(rules: readonly PermissionRule[], widen: boolean): string[] {
  const domains = rules.flatMap((rule) => {
    const domain = rule.pattern!.slice(DOMAIN_PREFIX.length).trim().toLowerCase().replace(/\.$/, '');
    if (!domain.startsWith('*.')) return [domain];
    return widen ? [domain.slice(2)] : [];
  });
  return [...new Set(domains)];
}
