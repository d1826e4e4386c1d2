import { spawn } from 'node:child_process';
import { visibleText } from '../../display/visible-text.js';

/**
 * Tells the user a background session ended: on their terminal (`stream`, when it is one) a bell and an
 * OSC 9 notification (shown by iTerm2, Windows Terminal, kitty, WezTerm…; ignored elsewhere), and a
 * desktop notification through notify-send where it is installed.
 */
export function notifyEnd(title: string, body: string, stream: NodeJS.WriteStream | undefined, env: NodeJS.ProcessEnv): Promise<void> {
  const line = visibleText(`${title}: ${body}`).replace(/[\u0000-\u001f\u007f]/g, ' ');
  if (stream?.isTTY) stream.write(`\u0007\u001b]9;${line}\u0007`);
  return new Promise((resolve) => {
    const child = spawn('notify-send', ['--app-name=vibe-agent', visibleText(title), visibleText(body)], { stdio: 'ignore', env });
    child.on('error', () => resolve());
    child.on('close', () => resolve());
  });
}
