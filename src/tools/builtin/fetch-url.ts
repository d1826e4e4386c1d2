import type { Tool } from '../../contracts/tool.js';
import { defineTool } from '../define-tool.js';
import { httpGet, readCapped } from './fetch/http-get.js';
import { normalizeUrl, urlSubject } from './fetch/normalize-url.js';
import { PrivateAddressError } from './fetch/private-address.js';

/** Read from the wire at most this much; the rest of a longer (or endless) page is never downloaded. */
const MAX_BODY_BYTES = 1024 * 1024;
const MAX_REDIRECTS = 5;

export interface FetchUrlOptions {
  /**
   * Hosts (as in a URL: `127.0.0.1`, `localhost`, `[::1]`, `intranet.example`) the tool may reach
   * although they are, or resolve to, private, loopback or link-local addresses. None by default:
   * a page or a model must not steer the agent to the metadata service or the local network.
   */
  privateHosts?: readonly string[];
}

export function createFetchUrlTool(options: FetchUrlOptions = {}): Tool {
  const privateHosts = new Set((options.privateHosts ?? []).flatMap((host) => hostOf(host) ?? []));
  return defineTool({
    name: 'fetch_url',
    description: 'HTTP GET a URL (http/https). Returns status, content type, the text length in characters, and the text (capped).',
    parameters: (z) => z.object({ url: z.string().describe('absolute http(s) URL') }),
    readOnly: true,
    // A GET sends data out: a model steered by something it read could put secrets into the URL.
    needsApproval: true,
    permission: { category: 'network', aliases: ['fetch'], subject: ({ url }) => ({ kind: 'web-url', value: urlSubject(url) }) },
    timeoutMs: 20_000,
    preview: async ({ url }) => ({ summary: urlSubject(url) }),
    async execute({ url }, { signal, authorizeFollowUp }) {
      const first = normalizeUrl(url);
      if (!first.ok) return { output: first.reason, isError: true };
      let target = first.url;
      for (let hop = 0; ; hop++) {
        let response;
        try {
          response = await httpGet(target, { signal, allowPrivate: privateHosts.has(target.hostname) });
        } catch (error) {
          if (!(error instanceof PrivateAddressError)) throw error;
          return { output: `Not fetched: ${error.message}. Only the user can allow that host (--fetch-private ${target.hostname}).`, isError: true };
        }
        const location = response.headers.location;
        if (response.statusCode && response.statusCode >= 300 && response.statusCode < 400 && location) {
          response.destroy();
          if (hop >= MAX_REDIRECTS) return { output: `Not fetched: more than ${MAX_REDIRECTS} redirects, the last to ${location}.`, isError: true };
          const next = normalizeUrl(new URL(location, target).href);
          if (!next.ok) return { output: `Not followed: ${target.href} redirects to ${location}. ${next.reason}`, isError: true };
          // Each hop is a new request: the rules that held for the first URL must hold for it too.
          const decision = authorizeFollowUp ? await authorizeFollowUp({ url: next.url.href }) : { allowed: true as const };
          if (!decision.allowed) return { output: `Not followed: ${target.href} redirects to ${next.url.href}, which is denied: ${decision.reason}`, isError: true };
          target = next.url;
          continue;
        }
        return describe(response.statusCode ?? 0, response.statusMessage ?? '', String(response.headers['content-type'] ?? 'unknown'), await readCapped(response, MAX_BODY_BYTES), target, first.url);
      }
    },
  });
}

/** The tool with no private hosts allowed. */
export const fetchUrlTool = createFetchUrlTool();

function describe(status: number, statusText: string, type: string, body: { text: string; cut: boolean; bytes: number }, finalUrl: URL, firstUrl: URL): { output: string; isError: boolean } {
  const { text } = body;
  const length = body.cut ? `at least ${text.length} characters (stopped reading after ${body.bytes} bytes)` : `${text.length} characters`;
  const redirected = finalUrl.href === firstUrl.href ? '' : `url: ${finalUrl.href}\n`;
  return { output: `status: ${status} ${statusText}\n${redirected}content-type: ${type}\nlength: ${length}\n\n${text}`, isError: status < 200 || status >= 300 };
}

function hostOf(host: string): string | undefined {
  try {
    return new URL(`http://${host.trim()}`).hostname;
  } catch {
    return undefined;
  }
}

