/**
 * A small terminal emulator for tests: applies the bytes a program writes (text with auto-wrap,
 * CR, LF, cursor up/down/forward/back, erase in display and line; SGR and private modes are
 * ignored) to a grid, so a test can assert on what a user would see, scrollback included.
 */
export class VirtualTerminal {
  /** Every row that ever existed: the scrollback followed by the screen. */
  private lines: string[][] = [[]];
  private row = 0;
  private col = 0;
  private top = 0;
  /** Everything written, raw, for assertions about escape sequences. */
  raw = '';
  private readonly listeners = new Set<() => void>();
  private readonly watchers = new Set<() => void>();

  /** The output stream the program writes to. */
  readonly output: {
    write(text: string): boolean;
    readonly columns: number;
    readonly rows: number;
    on(event: 'resize', listener: () => void): void;
    off(event: 'resize', listener: () => void): void;
  };

  constructor(
    public columns: number,
    public rows: number,
  ) {
    const terminal = this;
    this.output = {
      write(text: string) {
        terminal.raw += text;
        terminal.apply(text);
        for (const watcher of [...terminal.watchers]) watcher();
        return true;
      },
      get columns() {
        return terminal.columns;
      },
      get rows() {
        return terminal.rows;
      },
      on(event, listener) {
        if (event === 'resize') terminal.listeners.add(listener);
      },
      off(_event, listener) {
        terminal.listeners.delete(listener);
      },
    };
  }

  /** Resolves once the screen passes `test`, checked after every write; fails at the deadline with the screen. */
  waitFor(test: string | ((screen: string) => boolean), timeoutMs = 30_000): Promise<string> {
    const check = typeof test === 'string' ? (screen: string) => screen.includes(test) : test;
    if (check(this.screen())) return Promise.resolve(this.screen());
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.watchers.delete(watcher);
        reject(new Error(`Timed out waiting for ${String(test)}. Screen:\n${this.screen()}`));
      }, timeoutMs);
      const watcher = () => {
        if (!check(this.screen())) return;
        clearTimeout(timer);
        this.watchers.delete(watcher);
        resolve(this.screen());
      };
      this.watchers.add(watcher);
    });
  }

  resize(columns: number, rows: number): void {
    this.columns = columns;
    this.rows = rows;
    for (const listener of this.listeners) listener();
  }

  /** The visible screen, rows joined with newlines, trailing spaces trimmed. */
  screen(): string {
    return this.lines.slice(this.top, this.top + this.rows).map((cells) => cells.join('').trimEnd()).join('\n').replace(/\n+$/, '');
  }

  /** Scrollback and screen together. */
  all(): string {
    return this.lines.map((cells) => cells.join('').trimEnd()).join('\n').replace(/\n+$/, '');
  }

  private ensure(row: number): string[] {
    while (this.lines.length <= row) this.lines.push([]);
    return this.lines[row]!;
  }

  private lineFeed(): void {
    this.row++;
    this.ensure(this.row);
    if (this.row - this.top >= this.rows) this.top = this.row - this.rows + 1;
  }

  private apply(text: string): void {
    let i = 0;
    while (i < text.length) {
      const ch = text[i]!;
      if (ch === '\x1b') {
        const csi = /^\x1b\[([?0-9;]*)([ -/]*)([@-~])/.exec(text.slice(i));
        if (csi) {
          this.csi(csi[1] ?? '', csi[3]!);
          i += csi[0].length;
          continue;
        }
        i += 2;
        continue;
      }
      if (ch === '\r') this.col = 0;
      else if (ch === '\n') this.lineFeed();
      else {
        const cp = text.codePointAt(i)!;
        const glyph = String.fromCodePoint(cp);
        if (this.col >= this.columns) {
          this.col = 0;
          this.lineFeed();
        }
        const cells = this.ensure(this.row);
        while (cells.length < this.col) cells.push(' ');
        cells[this.col] = glyph;
        this.col++;
        i += glyph.length;
        continue;
      }
      i++;
    }
  }

  private csi(params: string, final: string): void {
    if (params.startsWith('?')) return;
    const n = Number(params.split(';')[0] || '1') || 1;
    const cells = this.ensure(this.row);
    switch (final) {
      case 'A':
        this.row = Math.max(this.top, this.row - n);
        break;
      case 'B':
        this.row = Math.min(this.top + this.rows - 1, this.row + n);
        this.ensure(this.row);
        break;
      case 'C':
        this.col = Math.min(this.columns - 1, this.col + n);
        break;
      case 'D':
        this.col = Math.max(0, this.col - n);
        break;
      case 'J':
        if ((params || '0') === '0') {
          cells.length = Math.min(cells.length, this.col);
          this.lines.length = this.row + 1;
        } else if (params === '2') {
          for (let r = this.top; r < this.lines.length; r++) this.lines[r] = [];
        }
        break;
      case 'K':
        cells.length = Math.min(cells.length, this.col);
        break;
      case 'H':
        this.row = this.top;
        this.col = 0;
        break;
      default:
        break;
    }
  }
}
