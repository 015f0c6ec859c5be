/**
 * Large values of one HTTP request go around JSON. Out: get_output's 11 MB of base64 — the tool puts a short
 * stand-in in its result, the SDK serialises that, and the response's bytes get the string in the stand-in's
 * place on the way out. JSON.stringify of such a string, then its UTF-8 encoding, cost about 55 ms a call on
 * this machine's cores; copying it into the stream costs 7. The bytes on the wire are the ones JSON.stringify
 * would have written: only strings that need no JSON escape (base64) may go this way. In: an upload's base64 is
 * decoded straight from the request body (json-body.ts), and its argument is a stand-in for those bytes.
 * Outside an HTTP request (stdio), tools get their strings and nothing changes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import { Transform } from 'node:stream';

/** Stand-ins of one HTTP request's result and their strings. */
export type SpliceTable = Map<string, string>;

/** One request's large values: strings for its response, and bytes its body carried. */
export interface LargeValues {
  out: SpliceTable;
  in: Map<string, Buffer>;
}

const requests = new AsyncLocalStorage<LargeValues>();
const PREFIX = 'ec-splice-';
const PREFIX_BYTES = Buffer.from(PREFIX);
/** The prefix and a UUID: unguessable, so no caller can name another result's string. */
const STAND_IN_LENGTH = PREFIX.length + 36;

/** Runs `fn` (an HTTP request's handling) with its large values. */
export function withLargeValues<T>(values: LargeValues, fn: () => Promise<T>): Promise<T> {
  return requests.run(values, fn);
}

/** A stand-in no caller can guess (the prefix and a UUID). */
export function newStandIn(): string {
  return `${PREFIX}${randomUUID()}`;
}

/** The bytes the request body carried in place of `text`, when `text` is their stand-in (taken once). */
export function takeBytes(text: string): Buffer | undefined {
  const values = requests.getStore();
  const bytes = values?.in.get(text);
  if (bytes) values!.in.delete(text);
  return bytes;
}

/**
 * What a result should carry for `text` (ASCII needing no JSON escape, e.g. base64): a stand-in when the HTTP
 * layer will put the text in its place, else the text itself.
 */
export function largeString(text: string): string {
  const table = requests.getStore()?.out;
  if (!table) return text;
  const id = newStandIn();
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
