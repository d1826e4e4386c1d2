import type { Citation } from '../../contracts/messages.js';

/** A reply's web sources, listed after its text: "Sources:" then one numbered line each. */
export function formatSources(citations: Citation[] | undefined): string {
  if (!citations?.length) return '';
  const lines = citations.map((citation, i) => `${i + 1}. ${citation.title ? `${oneLine(citation.title)} — ` : ''}${oneLine(citation.url)}`);
  return `Sources:\n${lines.join('\n')}\n`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
