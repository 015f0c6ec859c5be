/**
 * Loading the WebAssembly kernels of this directory (compiled from assembly/ by npm run build:wasm and copied
 * into dist by the build). A kernel has no data of its own (its memory starts empty); frames are placed from
 * one page in. Each thread instantiates its own: the memory is per thread, as the frames are.
 */
import { readFileSync } from 'node:fs';

/** The part of the WebAssembly API used here (Node's types for lib ES2023 do not declare it). */
const wasm = (
  globalThis as unknown as {
    WebAssembly: {
      Module: new (bytes: Uint8Array) => object;
      Instance: new (module: object) => { exports: object };
    };
  }
).WebAssembly;

/** Where frames start in a kernel's memory. */
export const FRAME_BASE = 65536;

export interface KernelMemory {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
}

/**
 * A lazily loaded kernel: `withRoom(bytes)` instantiates it on first use and grows its memory to hold `bytes`
 * from FRAME_BASE on.
 */
export function wasmKernel<K extends KernelMemory>(file: string): { withRoom(bytes: number): K } {
  let kernel: K | null = null;
  return {
    withRoom(bytes: number): K {
      // Compiled without assertions: the modules import nothing.
      kernel ??= new wasm.Instance(new wasm.Module(readFileSync(new URL(file, import.meta.url))))
        .exports as unknown as K;
      const have = kernel.memory.buffer.byteLength;
      const need = FRAME_BASE + bytes;
      if (need > have) kernel.memory.grow(Math.ceil((need - have) / 65536));
      return kernel;
    },
  };
}
