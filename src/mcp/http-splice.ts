/**
 * Large strings in HTTP results (get_output's 11 MB of base64) go around the SDK's serialiser: the tool puts a
 * short stand-in in its result, the SDK serialises that, and the response's bytes get the string in the
 * stand-in's place on the way out. JSON.stringify of such a string, then its UTF-8 encoding, cost about
 * 55 ms a call on this machine's cores; copying it into the stream costs 7. The bytes on the wire are the ones
 * JSON.stringify would have written: only strings that need no JSON escape (base64) may go this way.
 * Outside an HTTP request (stdio), the tool gets its string back and nothing changes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Transform } from 'node:stream';

/** Stand-ins of one HTTP request and their strings. */
export type SpliceTable = Map<string, string>;

const requests = new AsyncLocalStorage<SpliceTable>();
const PREFIX = 'ec-splice-';
const PREFIX_BYTES = Buffer.from(PREFIX);
/** The prefix and a UUID: unguessable, so no caller can name another result's string. */
const STAND_IN_LENGTH = PREFIX.length + 36;

/** Runs `fn` (an HTTP request's handling) with a table for its large strings. */
export function withSpliceTable<T>(table: SpliceTable, fn: () => Promise<T>): Promise<T> {
  return requests.run(table, fn);
}

/**
 * What a result should carry for `text` (ASCII needing no JSON escape, e.g. base64): a stand-in when the HTTP
 * layer will put the text in its place, else the text itself.
 */
export function largeString(text: string): string {
  const table = requests.getStore();
  if (!table) return text;
  const id = `${PREFIX}${randomUUID()}`;
  table.set(id, text);
  return id;
}

/**
 * Replaces each stand-in of `table` in the byte stream with its string (each once), across chunk boundaries.
 * A chunk passes untouched while the table is empty: a stand-in cannot reach the stream before it is set.
 */
export function spliceStream(table: SpliceTable): Transform {
  let carry: Buffer = Buffer.alloc(0);
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (table.size === 0 && carry.length === 0) return done(null, chunk);
      const buf = carry.length ? Buffer.concat([carry, chunk]) : chunk;
      let from = 0;
      let keepFrom = -1;
      for (let at = buf.indexOf(PREFIX_BYTES, from); at >= 0; at = buf.indexOf(PREFIX_BYTES, from)) {
        if (at + STAND_IN_LENGTH > buf.length) {
          keepFrom = at;
          break;
        }
        const text = table.get(buf.toString('latin1', at, at + STAND_IN_LENGTH));
        if (text === undefined) {
          this.push(buf.subarray(from, at + PREFIX_BYTES.length));
          from = at + PREFIX_BYTES.length;
          continue;
        }
        this.push(buf.subarray(from, at));
        this.push(Buffer.from(text, 'latin1'));
        table.delete(buf.toString('latin1', at, at + STAND_IN_LENGTH));
        from = at + STAND_IN_LENGTH;
      }
      // Keep back what could be the start of a stand-in that the next chunk completes.
      if (keepFrom < 0) keepFrom = Math.max(from, buf.length - (PREFIX_BYTES.length - 1));
      if (keepFrom > from) this.push(buf.subarray(from, keepFrom));
      carry = Buffer.from(buf.subarray(keepFrom));
      done();
    },
    flush(done) {
      done(null, carry.length ? carry : undefined);
    },
  });
}
