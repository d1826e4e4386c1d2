import { fileURLToPath } from 'node:url';
import type { ContentBlock } from '@agentclientprotocol/sdk';

/**
 * A prompt's content blocks as the one user message our loop takes: text as is, a link to a file
 * as an `@path` mention the model can read_file, embedded context (a selection, an open file) as
 * a fenced block under its path. Images go on the message beside the text (prompt-images.ts);
 * audio is not routed and is said to be left out.
 */
export function promptText(blocks: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of blocks) {
    if (block.type === 'text') parts.push(block.text);
    else if (block.type === 'resource_link') parts.push(`@${pathOf(block.uri)}`);
    else if (block.type === 'resource') {
      const resource = block.resource;
      if ('text' in resource) parts.push(`Context from ${pathOf(resource.uri)}:\n\`\`\`\n${resource.text}\n\`\`\``);
      else parts.push(`[${pathOf(resource.uri)}: binary content left out]`);
    } else if (block.type !== 'image') parts.push(`[${block.type} left out: this agent takes text and images only]`);
  }
  return parts.join('\n\n');
}

function pathOf(uri: string): string {
  if (!uri.startsWith('file://')) return uri;
  try {
    return fileURLToPath(uri);
  } catch {
    return uri;
  }
}
