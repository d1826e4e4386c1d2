import type { ProviderSettings } from '../../providers/create-provider.js';
import type { ResolvedSettings } from './resolve-settings.js';

/**
 * What resolveProvider needs from the resolved settings. It reads the provider's own key and
 * base-URL variables itself (their names depend on the preset), so a config file's base URL is
 * passed as such: that variable beats it, a flag beats both.
 */
export function providerSettings({ values, sources }: ResolvedSettings, env: Record<string, string | undefined>): ProviderSettings {
  return {
    provider: values.provider,
    env,
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(values.apiKey !== undefined ? { apiKey: values.apiKey } : {}),
    ...(values.baseUrl !== undefined ? (sources.baseUrl === 'config' ? { configBaseUrl: values.baseUrl } : { baseUrl: values.baseUrl }) : {}),
    ...(values.thinking !== undefined ? { thinking: values.thinking } : {}),
    ...(values.idleTimeoutMs !== undefined ? { idleTimeoutMs: values.idleTimeoutMs } : {}),
    firstByteTimeoutMs: values.firstByteTimeoutMs,
    ...(values.wire !== undefined ? { wire: values.wire } : {}),
    cacheTtl: values.cacheTtl,
  };
}
