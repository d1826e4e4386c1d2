import { safeStdout } from '../../display/safe-output.js';
import { EXIT } from '../../settings/exit-codes.js';
import { openBrowser } from '../trace/open-browser.js';
import { ensureServer } from './server-address.js';

/**
 * `vibe-agent agents --page [--no-open]`: the server's live page (starting the server when none
 * runs). The token goes in the address's #fragment, which the browser never sends: it is on this
 * terminal and in the browser's hands, in no request line and no log.
 */
export async function openLivePage(noOpen: boolean, env: NodeJS.ProcessEnv): Promise<number> {
  const server = await ensureServer(env);
  const url = `${server.url}/#token=${encodeURIComponent(server.token)}`;
  safeStdout.write(`The live page of the sessions (the address holds the server's token; keep it to yourself):\n${url}\n`);
  if (!noOpen) openBrowser(url);
  return EXIT.answered;
}
