// A stand-in preview worker for test/unit/render/preview-client.test.ts: speaks preview/protocol.ts, and
// behaves by composition id: "frame" answers a 1x1 frame (saying whether the document came with it), "still" a
// still whose bytes are the encoding it was asked for, "bug" fails like a bug, "exit" dies mid-frame,
// "read" asks for the footage file named by `time`'s index in the document's items and reports what came back.
import { parentPort } from 'node:worker_threads';

let doc;
const reads = new Map();
let nextRead = 1;
const frame = (id, warnings) => {
  const rgba = new Uint8Array([1, 2, 3, 4]);
  parentPort.postMessage({ type: 'frame', id, width: 1, height: 1, rgba, premultiplied: false, warnings }, [
    rgba.buffer,
  ]);
};
parentPort.on('message', (m) => {
  if (m.type === 'footage') return reads.get(m.id)?.(m);
  if (m.doc) doc = m.doc;
  if (m.compId === 'frame') return frame(m.id, [`doc ${doc?.name} ${m.doc ? 'sent' : 'kept'}`]);
  if (m.compId === 'still') {
    const bytes = new Uint8Array(Buffer.from(JSON.stringify(m.encode)));
    const still = { type: 'still', id: m.id, width: 1, height: 1, bytes, warnings: [] };
    return parentPort.postMessage(still, [bytes.buffer]);
  }
  if (m.compId === 'bug') {
    const error = { code: 'tool_failed', message: 'boom', remediation: 'Report it.' };
    return parentPort.postMessage({ type: 'error', id: m.id, error, stack: 'Error: boom\n    at stub' });
  }
  if (m.compId === 'exit') process.exit(3);
  if (m.compId === 'read') {
    const id = nextRead++;
    reads.set(id, (reply) =>
      frame(m.id, [reply.bytes ? `bytes ${reply.bytes.length}` : `failure ${JSON.stringify(reply.failure)}`]),
    );
    parentPort.postMessage({ type: 'read', id, path: doc.items[m.time].path });
  }
});
parentPort.postMessage({ type: 'ready' });
