import { Transform, type TransformCallback } from 'node:stream';
import { ByteBudgetError } from '../contracts/byte-budget.js';

const MAX_HEADER_BYTES = 8 * 1024;
const HEADER_END = Buffer.from('\r\n\r\n');

/**
 * A language server's stdout, passed on while each message stays within `maxMessageBytes`. The
 * JSON-RPC reader buffers a whole message before it parses it, so a server announcing (or sending
 * without a header's end) more than the budget would grow the process without limit: the stream
 * errors with a `ByteBudgetError` instead, as soon as the header says so or the bytes pass it.
 */
export class BoundedMessages extends Transform {
  private header: Buffer[] = [];
  private headerBytes = 0;
  /** Body bytes still to pass in the current message; 0 while reading a header. */
  private bodyLeft = 0;

  constructor(
    private readonly peer: string,
    private readonly maxMessageBytes: number,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    try {
      this.scan(chunk);
      done(null, chunk);
    } catch (error) {
      done(error as Error);
    }
  }

  private scan(chunk: Buffer): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.bodyLeft > 0) {
        const take = Math.min(this.bodyLeft, chunk.length - at);
        this.bodyLeft -= take;
        at += take;
        continue;
      }
      this.header.push(chunk.subarray(at));
      this.headerBytes += chunk.length - at;
      const joined = Buffer.concat(this.header);
      const end = joined.indexOf(HEADER_END);
      if (end === -1) {
        if (this.headerBytes > MAX_HEADER_BYTES) throw new ByteBudgetError(this.peer, MAX_HEADER_BYTES, 'one message header');
        this.header = [joined];
        return;
      }
      const length = Number(/content-length:\s*(\d+)/i.exec(joined.subarray(0, end).toString('latin1'))?.[1] ?? 0);
      if (length > this.maxMessageBytes) throw new ByteBudgetError(this.peer, this.maxMessageBytes, 'one message');
      const consumed = end + HEADER_END.length - (this.headerBytes - (chunk.length - at));
      this.header = [];
      this.headerBytes = 0;
      this.bodyLeft = length;
      at += consumed;
    }
  }
}
