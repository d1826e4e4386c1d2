/** One block of an MCP tool result, as far as we read it. */
interface ContentBlock {
  type: string;
  text?: string;
  mimeType?: string;
  data?: string;
  uri?: string;
  name?: string;
  resource?: { uri?: string; mimeType?: string; text?: string; blob?: string };
}

/**
 * A tool result as text for the model: text blocks as they are, images, audio and binary
 * resources described (the model gets no pixels through a tool result in every provider), text
 * resources with their URI. Structured content stands in when there is no content.
 */
export function resultText(result: { content?: unknown; structuredContent?: unknown }): string {
  const blocks = Array.isArray(result.content) ? (result.content as ContentBlock[]) : [];
  if (blocks.length === 0) return result.structuredContent !== undefined ? JSON.stringify(result.structuredContent) : '(no output)';
  return blocks.map(blockText).join('\n');
}

function blockText(block: ContentBlock): string {
  switch (block.type) {
    case 'text':
      return block.text ?? '';
    case 'image':
    case 'audio':
      return `[${block.type}: ${block.mimeType ?? 'unknown type'}, ${base64Bytes(block.data)} bytes, not shown]`;
    case 'resource_link':
      return `[resource link: ${block.uri ?? '?'}${block.name ? ` (${block.name})` : ''}]`;
    case 'resource': {
      const resource = block.resource ?? {};
      if (resource.text !== undefined) return `[resource ${resource.uri ?? ''}]\n${resource.text}`;
      return `[resource ${resource.uri ?? ''}: ${resource.mimeType ?? 'binary'}, ${base64Bytes(resource.blob)} bytes, not shown]`;
    }
    default:
      return `[${block.type} content, not shown]`;
  }
}

function base64Bytes(data: string | undefined): number {
  if (!data) return 0;
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.floor((data.length * 3) / 4) - padding;
}
