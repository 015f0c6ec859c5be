/**
 * Parsing a POST body as JSON, with a fast path for the one shape that is large: an upload call
 * (put_sample, put_sample_chunk) whose bytes are one base64 string, `"content_b64":"…"`, of about 11 MB.
 * JSON.parse scans and copies such a string (about 25 ms on this machine's cores, and decoding the body as
 * UTF-8 first another 10 ms); cut out of the text, it is decoded from base64 straight from the body's bytes, in
 * slices (no 11 MB string, whose allocation also drove the garbage collector), and the argument becomes a
 * stand-in for the decoded bytes (`bytes`; the upload tools take them with takeBytes). The result is the value
 * JSON.parse would give, but for that stand-in, or the fast path is not taken. Text that is not base64 stays
 * text, for the tools' own check to refuse. One difference, on input that is wrong either way: a control
 * character inside the value (JSON forbids them raw) is not looked for here; the base64 check refuses it.
 */
import { isAscii } from 'node:buffer';
import { decodeBase64 } from './base64.js';
import { newStandIn } from './http-splice.js';

/** Bodies below this are parsed the plain way: the fast path pays only on large strings. */
const FAST_PATH_BYTES = 1024 * 1024;
const KEY = Buffer.from('"content_b64":"');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Parses `raw` as JSON; throws a SyntaxError as JSON.parse does. Decoded upload bytes go into `bytes`. */
export function parseJsonBody(raw: Buffer, bytes: Map<string, Buffer>): unknown {
  if (raw.length >= FAST_PATH_BYTES) {
    const fast = withUploadBytesCut(raw, bytes);
    if (fast !== undefined) return fast;
  }
  // ASCII bodies (most are) decode as latin1, which is a copy; UTF-8 decoding checks every byte.
  return JSON.parse(isAscii(raw) ? raw.toString('latin1') : raw.toString('utf8'));
}

/**
 * The body parsed with its one content_b64 value cut out and put back, or undefined when the body is not of
 * that shape (no such key, the key twice, an escape inside the value, the value elsewhere than
 * params.arguments): then the caller parses it whole, so a body of any other shape means what it says.
 */
function withUploadBytesCut(raw: Buffer, bytes: Map<string, Buffer>): unknown {
  const key = raw.indexOf(KEY);
  if (key < 0 || raw.indexOf(KEY, key + 1) >= 0) return undefined;
  const start = key + KEY.length;
  const end = raw.indexOf(QUOTE, start);
  if (end < 0) return undefined;
  const backslash = raw.indexOf(BACKSLASH, start);
  if (backslash >= 0 && backslash < end) return undefined;
  const value = raw.subarray(start, end);
  if (!isAscii(value)) return undefined;
  // A sentinel in the value's place: the rest is parsed as JSON, and the sentinel must come back exactly where
  // the bytes belong, or the cut is not trusted (the key's text could stand inside another string).
  const sentinel = newStandIn();
  const rest = Buffer.concat([raw.subarray(0, start), Buffer.from(sentinel), raw.subarray(end)]);
  let parsed: unknown;
  try {
    parsed = JSON.parse(isAscii(rest) ? rest.toString('latin1') : rest.toString('utf8'));
  } catch {
    return undefined;
  }
  const args = (parsed as { params?: { arguments?: Record<string, unknown> } } | null)?.params?.arguments;
  if (!args || typeof args !== 'object' || args.content_b64 !== sentinel) return undefined;
  // The sentinel stays as the stand-in for the decoded bytes.
  const decoded = decodeBase64(value);
  if (decoded) bytes.set(sentinel, decoded);
  else args.content_b64 = value.toString('latin1');
  return parsed;
}
