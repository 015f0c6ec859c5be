/**
 * Large values of one HTTP request go around JSON. Out: get_output's 8 MiB of bytes — the tool puts a short
 * stand-in in its result, the SDK serialises that, and the bytes' base64 takes the stand-in's place in the
 * response as it is written (splice-writer.ts). JSON.stringify of such a string, then its UTF-8 encoding, cost
 * about 55 ms a call on this machine's cores. In: an upload's base64 is decoded straight from the request body
 * (json-body.ts), and its argument is a stand-in for those bytes. Outside an HTTP request (stdio), tools get
 * their strings and nothing changes.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

/** Bytes whose base64 goes in a stand-in's place, and what to call once they are written (or never will be). */
export interface LargeBytes {
  bytes: Buffer;
  release?: () => void;
}

/** Stand-ins of one HTTP request's result and their bytes. */
export type SpliceTable = Map<string, LargeBytes>;

/** One request's large values: strings for its response, and bytes its body carried. */
export interface LargeValues {
  out: SpliceTable;
  in: Map<string, Buffer>;
}

const requests = new AsyncLocalStorage<LargeValues>();
const PREFIX = 'ec-splice-';
export const STAND_IN_PREFIX = Buffer.from(PREFIX);
/** The prefix and a UUID: unguessable, so no caller can name another result's bytes. */
export const STAND_IN_LENGTH = PREFIX.length + 36;

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
 * What a result should carry for the base64 of `bytes`: a stand-in when the HTTP layer will put the base64 in
 * its place, else the base64 itself. `bytes` must not change until `release` is called: at once outside a
 * request, else when the response has been written or has failed.
 */
export function largeBase64(bytes: Buffer, release?: () => void): string {
  const table = requests.getStore()?.out;
  if (!table) {
    const text = bytes.toString('base64');
    release?.();
    return text;
  }
  const id = newStandIn();
  table.set(id, { bytes, release });
  return id;
}

/** Releases what the table still holds (stand-ins the response never reached): called once a response ends. */
export function releaseAll(table: SpliceTable): void {
  for (const value of table.values()) value.release?.();
  table.clear();
}
