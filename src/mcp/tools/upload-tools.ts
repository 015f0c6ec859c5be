/**
 * The put_sample convention (docs/remote.md): a client on another machine uploads a sample before the agent's
 * first call and then passes the returned path to file.import, layer.addFootage or project.open. Offered only
 * over HTTP. Files up to 8 MiB go whole (put_sample); larger ones in chunks (begin, chunk..., finish).
 */
import { z } from 'zod';
import type { Stored, UploadStore } from '../remote/upload-store.js';
import { SHA256_PATTERN } from '../remote/sample-name.js';
import { defineTool, type ToolHints, type ToolOutcome } from './types.js';
import { takeBytes } from '../http-splice.js';
import { decodeBase64 } from '../base64.js';

/** Uploads change nothing the agent made, and the same bytes give the same path (content-addressed). */
const UPLOAD_TOOL: ToolHints = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};

const filename = z
  .string()
  .min(1)
  .describe('The file name with its extension, e.g. "clip.mp4": a name, never a path.');
const sha256 = z.string().regex(SHA256_PATTERN).describe('sha256 of the whole file, 64 hex digits.');
const base64 = z.string().describe('The bytes, standard base64 (A-Z a-z 0-9 + /), padded with =.');
const folder = z
  .string()
  .min(1)
  .optional()
  .describe(
    "A folder name (not a path): samples uploaded with the same folder land side by side in one folder, e.g. the frames of an image sequence (then file.import {path: <first frame>, sequence: true}). Default: a folder of the sample's own.",
  );

/** The bytes of an upload's content_b64: decoded from the request body already over HTTP (json-body.ts). */
function decode(text: string): Buffer | null {
  return takeBytes(text) ?? decodeBase64(text);
}

const notBase64: ToolOutcome = {
  kind: 'error',
  error: {
    code: 'bad_argument',
    message:
      "content_b64 is not standard base64: only A-Z, a-z, 0-9, + and /, padded with = to a multiple of 4 characters (base64url's - and _ and missing padding are refused).",
    remediation:
      'Encode the bytes with standard padded base64, e.g. Buffer.from(bytes).toString("base64") or Python\'s base64.b64encode.',
  },
};

function outcome<T>(r: Stored<T>): ToolOutcome {
  return r.ok ? { kind: 'json', value: r.value } : { kind: 'error', error: r.error };
}

/** The upload tools over one store. */
export function uploadTools(store: UploadStore) {
  return [
    defineTool({
      name: 'put_sample',
      title: 'Upload Sample',
      description:
        'Uploads a file (at most 8 MiB; larger files: put_sample_begin) to this render node and returns {path}, the path to pass to file.import, layer.addFootage or project.open. Checked against sha256; stored once per sha256; removed after 30 minutes unused and when the server stops.',
      hints: UPLOAD_TOOL,
      input: z.strictObject({ filename, content_b64: base64, sha256, folder }),
      async run(args) {
        const bytes = decode(args.content_b64);
        return bytes ? outcome(await store.put(args.filename, bytes, args.sha256, args.folder)) : notBase64;
      },
    }),
    defineTool({
      name: 'put_sample_begin',
      title: 'Begin Chunked Upload',
      description:
        "Starts a chunked upload of a file over 8 MiB: returns {upload_id}, and reserves size bytes against the node's upload limit until finished or aborted. Then put_sample_chunk for each part (seq from 0, any order, resends replace) and put_sample_finish, which returns {path}. To give up, put_sample_abort. Beginning the same file (filename, sha256, size, folder) again takes over an earlier begin that received no chunk (a lost answer does not reserve twice); an upload with no chunk is dropped after 2 minutes, one with chunks after 30 minutes without a new one.",
      hints: UPLOAD_TOOL,
      input: z.strictObject({
        filename,
        sha256,
        size: z.number().int().min(1).describe('Size of the whole file in bytes.'),
        folder,
      }),
      async run(args) {
        return outcome(await store.begin(args.filename, args.sha256, args.size, args.folder));
      },
    }),
    defineTool({
      name: 'put_sample_chunk',
      title: 'Upload Chunk',
      description:
        'Sends part seq (0, 1, 2, …) of a chunked upload (8 MiB parts suggested). Parts are joined in seq order; they may arrive in any order, and a resent seq replaces the earlier one. Returns {seq}.',
      hints: UPLOAD_TOOL,
      input: z.strictObject({
        upload_id: z.string().min(1).describe('From put_sample_begin.'),
        seq: z.number().int().min(0).max(1_000_000).describe('Index of this part, from 0.'),
        content_b64: base64,
      }),
      async run(args) {
        const bytes = decode(args.content_b64);
        if (!bytes) return notBase64;
        return outcome(await store.chunk(args.upload_id, args.seq, bytes));
      },
    }),
    defineTool({
      name: 'put_sample_finish',
      title: 'Finish Chunked Upload',
      description:
        'Joins the parts of a chunked upload, checks the sha256 given to put_sample_begin and returns {path}. A missing part is an error naming its seq (send it, then finish again); a sha256 mismatch discards the upload.',
      hints: UPLOAD_TOOL,
      input: z.strictObject({ upload_id: z.string().min(1).describe('From put_sample_begin.') }),
      async run(args) {
        return outcome(await store.finish(args.upload_id));
      },
    }),
    defineTool({
      name: 'put_sample_abort',
      title: 'Abort Chunked Upload',
      description:
        'Gives up a chunked upload before put_sample_finish: removes its parts and frees the bytes its put_sample_begin reserved. Returns {upload_id, released_bytes}. Stored samples are not touched.',
      hints: { ...UPLOAD_TOOL, destructiveHint: true },
      input: z.strictObject({ upload_id: z.string().min(1).describe('From put_sample_begin.') }),
      async run(args) {
        return outcome(await store.abort(args.upload_id));
      },
    }),
  ];
}
