import { z } from 'zod';
import { defineTool } from '../define-tool.js';

const MAX_TEXT = 20_000;

export const fetchUrlTool = defineTool({
  name: 'fetch_url',
  description: 'HTTP GET a URL (http/https). Returns status, content type, the full text length in characters, and the text (capped).',
  parameters: z.object({ url: z.string().describe('absolute http(s) URL') }),
  readOnly: true,
  // A GET sends data out: a model steered by something it read could put secrets into the URL.
  needsApproval: true,
  permission: { category: 'network', aliases: ['fetch'], subject: ({ url }) => ({ kind: 'web-url', value: url }) },
  timeoutMs: 20_000,
  preview: async ({ url }) => ({ summary: url }),
  async execute({ url }, { signal }) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return { output: `"${url}" is not an absolute URL. Include the scheme, e.g. https://example.com/.`, isError: true };
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      return { output: `Only http and https URLs can be fetched, not ${parsed.protocol}`, isError: true };
    }
    const response = await fetch(parsed, { signal, redirect: 'follow', headers: { 'user-agent': 'vibe-agent' } });
    const text = await response.text();
    const type = response.headers.get('content-type') ?? 'unknown';
    const shown = text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT)}\n[… truncated: showing ${MAX_TEXT} of ${text.length} characters]` : text;
    return {
      output: `status: ${response.status} ${response.statusText}\ncontent-type: ${type}\nlength: ${text.length} characters\n\n${shown}`,
      isError: !response.ok,
    };
  },
});
