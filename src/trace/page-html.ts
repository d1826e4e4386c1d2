import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';
import { inlineCode, jsonForScript } from './script-json.js';
import type { TraceData } from './trace-data.js';
import type { ChartAssets } from './uplot-assets.js';

/** No network at all: everything the page needs is in it. */
const CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";

/**
 * The whole trace page as one self-contained HTML document. The messages' texts (most of a large
 * session's bytes) go in a block of their own at the end, after the page's script: the timeline
 * and chart are drawn while the browser still reads them, and they are parsed when a text is needed.
 */
export function tracePageHtml(data: TraceData, chart: ChartAssets): string {
  const texts = data.messages.map((message) => message.content);
  const outline = { ...data, messages: data.messages.map(({ content: _content, ...rest }) => rest) };
  const title = `vibe-agent trace ${data.session.id}`.replace(/[<>&"]/g, (char) => `&#${char.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>${inlineCode(chart.css, 'style')}</style>
<style>${inlineCode(PAGE_STYLE, 'style')}</style>
</head>
<body>
<div id="app"></div>
<script type="application/json" id="trace-data">${jsonForScript(outline)}</script>
<script>${inlineCode(chart.js, 'script')}</script>
<script>${inlineCode(PAGE_SCRIPT, 'script')}</script>
<script type="application/json" id="trace-texts">${jsonForScript(texts)}</script>
</body>
</html>
`;
}
