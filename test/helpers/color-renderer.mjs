// A stand-in FrameRenderer for render queue tests, loaded by the render workers (plain JS: workers run
// compiled code). Each frame is a solid colour derived from the frame number and the layer count, so tests
// can tell frames apart and see which document a job rendered. Comp names switch on test behaviours:
//   "noise"       incompressible pixels (large PNGs, to fill a small volume)
//   "slow"        waits 30 ms per frame (time to edit, stop or kill mid-render)
//   "throw-at-N"  throws at frame N;  "exit-at-N"  ends the worker thread at frame N
export function frameColor(frame, layers) {
  return [(frame * 7) % 256, (frame * 13) % 256, (layers * 40) % 256, 255];
}

export function createFrameRenderer() {
  return {
    async renderFrame(doc, compId, time, options) {
      const comp = doc.items.find((i) => i.id === compId);
      const frame = Math.round(time * comp.frameRate);
      const scale = options.scale ?? 1;
      const width = Math.max(1, Math.round(comp.width * scale));
      const height = Math.max(1, Math.round(comp.height * scale));
      if (comp.name.includes('slow')) await new Promise((r) => setTimeout(r, 30));
      if (comp.name === `throw-at-${frame}`) throw new Error(`test renderer fails at frame ${frame}`);
      if (comp.name === `exit-at-${frame}`) process.exit(3);
      const rgba = Buffer.alloc(width * height * 4);
      if (comp.name.includes('noise')) {
        let x = frame * 2654435761 + 1;
        for (let i = 0; i < rgba.length; i++) {
          x ^= x << 13;
          x ^= x >>> 17;
          x ^= x << 5;
          rgba[i] = (i & 3) === 3 ? 255 : x & 255;
        }
      } else {
        const c = frameColor(frame, comp.layers.length);
        for (let i = 0; i < rgba.length; i += 4) rgba.set(c, i);
      }
      return { width, height, rgba, premultiplied: false, warnings: [] };
    },
    dispose() {},
  };
}
