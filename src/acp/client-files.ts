import type { AgentContext } from '@agentclientprotocol/sdk';
import type { FileAccess } from '../tools/coding/shared/file-access.js';

/**
 * File bytes through the editor (fs/read_text_file, fs/write_text_file): reads see unsaved
 * buffers, writes land in them. Every path reaches here through confinedFileAccess, so none outside the workspace is sent.
 */
export function editorFileAccess(client: AgentContext, sessionId: () => string): FileAccess {
  return {
    async read(absolute, maxBytes) {
      const { content } = await client.request('fs/read_text_file', { sessionId: sessionId(), path: absolute });
      const bytes = Buffer.from(content, 'utf8');
      if (bytes.length > maxBytes) throw new Error(`the editor's copy is ${bytes.length} bytes, over the ${maxBytes}-byte limit`);
      return bytes;
    },
    async write(absolute, bytes) {
      await client.request('fs/write_text_file', { sessionId: sessionId(), path: absolute, content: Buffer.from(bytes).toString('utf8') });
    },
  };
}
