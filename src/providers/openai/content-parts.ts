/**
 * A Chat Completions `content` in every shape the compatible servers send: a string, or (Mistral's
 * Magistral models) an array of typed parts, `{type: "text", text}` and `{type: "thinking",
 * thinking: [{type: "text", text}]}`. The answer is the text parts joined, the thinking the
 * thinking parts'; parts of other types carry nothing to show.
 */
export function readContent(content: unknown): { text: string; thinking: string } {
  if (typeof content === 'string') return { text: content, thinking: '' };
  if (!Array.isArray(content)) return { text: '', thinking: '' };
  let text = '';
  let thinking = '';
  for (const part of content) {
    if (!part || typeof part !== 'object') continue;
    const { type } = part as { type?: unknown };
    if (type === 'text') text += stringOf((part as { text?: unknown }).text);
    else if (type === 'thinking') thinking += partsText((part as { thinking?: unknown }).thinking);
  }
  return { text, thinking };
}

function partsText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value)) return '';
  return value.map((part) => (part && typeof part === 'object' && (part as { type?: unknown }).type === 'text' ? stringOf((part as { text?: unknown }).text) : '')).join('');
}

function stringOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
