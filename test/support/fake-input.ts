import { EventEmitter } from 'node:events';

/** A terminal's stdin for the in-process TUI tests: the test types into it; `raw` is what the UI last set. */
export class FakeInput extends EventEmitter {
  raw = false;
  setRawMode(raw: boolean) {
    this.raw = raw;
  }
  resume() {}
  pause() {}
  type(text: string) {
    this.emit('data', Buffer.from(text));
  }
}
