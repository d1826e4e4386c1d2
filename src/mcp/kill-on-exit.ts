/**
 * Server processes still running when this process exits, whatever the path (a return from
 * main, process.exit, an uncaught error): each gets SIGTERM from the 'exit' handler, which may
 * only do synchronous work. A server whose parent is killed outright still sees its stdin close.
 */
const running = new Set<number>();
let installed = false;

export function killOnExit(pid: number): () => void {
  if (!installed) {
    installed = true;
    process.on('exit', () => {
      for (const child of running) {
        try {
          process.kill(child, 'SIGTERM');
        } catch {
          // Already gone.
        }
      }
    });
  }
  running.add(pid);
  return () => running.delete(pid);
}
