export type NormalizedUrl = { ok: true; url: URL } | { ok: false; reason: string };

/**
 * The URL as the WHATWG parser reads it, which is also what is fetched: scheme and host lower-cased,
 * IPv4 in any spelling (0x7f000002, 2130706434, 127.000.000.002) as dotted decimal, `http:host`
 * as `http://host/`, surrounding spaces dropped. Permission rules match this form, never the raw
 * text, so no respelling of a denied host gets past them.
 */
export function normalizeUrl(text: string): NormalizedUrl {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return { ok: false, reason: `"${text}" is not an absolute URL. Include the scheme, e.g. https://example.com/.` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: `Only http and https URLs can be fetched, not ${url.protocol}` };
  return { ok: true, url };
}

/** The permission subject of a URL: its normalised form, or the text itself when it does not parse (the call then fails). */
export function urlSubject(text: string): string {
  const normalized = normalizeUrl(text);
  return normalized.ok ? normalized.url.href : text;
}
