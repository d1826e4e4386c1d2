const SPINNER = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The spinner's frame after this long: the TUI's running tools and a one-shot run's wait line turn alike. */
export function spinnerFrame(elapsedMs: number): string {
  return SPINNER[Math.floor(elapsedMs / 80) % SPINNER.length]!;
}
