/**
 * What `mcp --http` adds to a server so it can be a render node for clients on other machines: the upload
 * store (put_sample*), the reader of the files it wrote (get_output) and the limit on calls in flight.
 * Created once per process by the CLI and shared by every HTTP request's server instance; stdio servers have
 * none (a stdio server can open its client's files already).
 */
import type { CallLimit } from './call-limit.js';
import { OUTPUT_CHUNK_MAX, type OutputReader } from './output-reader.js';
import { SINGLE_PUT_MAX, type UploadStore } from './upload-store.js';

export interface RemoteNode {
  readonly uploads: UploadStore;
  readonly outputs: OutputReader;
  readonly calls: CallLimit;
}

/** The upload tools, named once (the manifest marks them unavailable without a write root). */
export const UPLOAD_TOOL_NAMES = [
  'put_sample',
  'put_sample_begin',
  'put_sample_chunk',
  'put_sample_finish',
  'put_sample_abort',
];

/** What the capabilities manifest says about this node: the upload convention and its limits. */
export function remoteReport(node: RemoteNode): Record<string, unknown> {
  const refusal = node.uploads.refusal();
  return {
    uploads: {
      convention: 'put_sample',
      tools: UPLOAD_TOOL_NAMES,
      available: refusal === null,
      ...(refusal && { reason: refusal.message, remediation: refusal.remediation }),
      chunked_above_bytes: SINGLE_PUT_MAX,
      max_upload_bytes: node.uploads.limits.maxUploadBytes,
      max_total_bytes: node.uploads.limits.maxTotalBytes,
      removed_after_unused_minutes: node.uploads.limits.idleMs / 60_000,
      // A chunked upload's size is reserved from its begin; one that receives no chunk is dropped sooner.
      upload_without_chunks_dropped_after_minutes: node.uploads.limits.unstartedMs / 60_000,
    },
    outputs: { tool: 'get_output', max_chunk_bytes: OUTPUT_CHUNK_MAX },
    max_concurrent_calls: node.calls.max,
  };
}

/** The manifest's per-tool entries with the upload tools marked unavailable when uploads are refused. */
export function withUploads<T extends { name: string; available: boolean }>(
  tools: T[],
  node: RemoteNode,
): T[] {
  const refusal = node.uploads.refusal();
  if (!refusal) return tools;
  return tools.map((t) =>
    UPLOAD_TOOL_NAMES.includes(t.name)
      ? { ...t, available: false, reason: refusal.message, remediation: refusal.remediation }
      : t,
  );
}
