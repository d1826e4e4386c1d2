import type { ServerResponse } from 'node:http';
import { PAGE_STYLE } from '../trace/page-style.js';
import { inlineCode } from '../trace/script-json.js';
import { LIVE_PAGE_SCRIPT } from './live-page-script.js';

/**
 * Only this server's own routes, no framing (an Allow button must not be clickable through another
 * page), no referrer. Sent as a header: frame-ancestors is ignored in a meta element.
 */
const CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; img-src data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const LIVE_STYLE = `
#agents { border-collapse: collapse; width: 100%; margin: 8px 0 16px; background: #fff; }
#agents th, #agents td { text-align: left; padding: 4px 10px; border-bottom: 1px solid #eef; font-size: 13px; }
#agents tr.agent { cursor: pointer; }
#agents tr.selected { background: #eef3fb; }
#agents .id, #agents .workspace { color: #666; font-family: ui-monospace, monospace; font-size: 12px; }
button.link { border: 0; background: none; color: #2f6fdf; cursor: pointer; font: inherit; padding: 0; }
.state-working { color: #2f6fdf; } .state-needs-you { color: #a15c00; font-weight: 700; } .state-done { color: #2e7d32; }
.state-failed { color: #b3261e; } .state-stopped { color: #555; }
h2 { font-size: 17px; margin: 12px 0 4px; }
.approval { border: 2px solid #a15c00; border-radius: 6px; background: #fffaf0; padding: 8px 12px; margin: 8px 0; }
.approval.answered { border-color: #ccd; background: #fff; }
.approval-buttons { margin: 6px 0; display: flex; gap: 8px; }
.approval-status { font-weight: 600; }
.run { margin: 14px 0 4px; }
.land { margin: 6px 0; }
#land-result pre { max-height: 300px; overflow: auto; }
`;

let page: Buffer | undefined;

/** The live page: the trace page's styles and turn rendering, over this server's routes. */
export function livePageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>vibe-agent sessions</title>
<style>${inlineCode(PAGE_STYLE, 'style')}</style>
<style>${inlineCode(LIVE_STYLE, 'style')}</style>
</head>
<body>
<div id="app"></div>
<script>${inlineCode(LIVE_PAGE_SCRIPT, 'script')}</script>
</body>
</html>
`;
}

/** GET / (and HEAD): the page itself needs no token; it reads the one its address's #fragment carries. */
export function sendLivePage(response: ServerResponse, head: boolean): void {
  page ??= Buffer.from(livePageHtml());
  response.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': page.length,
    'cache-control': 'no-store',
    'content-security-policy': CONTENT_SECURITY_POLICY,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
  });
  response.end(head ? undefined : page);
}
