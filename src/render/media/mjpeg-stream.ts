/**
 * Splits ffmpeg's `-f mpjpeg` output (multipart JPEG: a boundary line, headers with Content-length, a blank
 * line, the image, CRLF) into one Buffer per image. The length header frames each image, so nothing inside
 * the JPEG data is ever scanned for markers. Pure: fed chunks as they arrive.
 */

/** Headers longer than this are not ffmpeg's: the stream is refused rather than buffered without bound. */
const MAX_HEADER_BYTES = 1024;

export class MjpegSplitter {
  #pending: Buffer = Buffer.alloc(0);
  /** Bytes of the current image still to come (-1: reading headers). */
  #need = -1;
  #image: Buffer | null = null;
  #filled = 0;
  #broken = false;

  /** Whether the stream stopped making sense (no Content-length, an oversized header); later chunks are ignored. */
  get broken(): boolean {
    return this.#broken;
  }

  /** Feeds a chunk; calls `onImage` for every image it completes (a Buffer of its own). */
  push(chunk: Buffer, onImage: (jpeg: Buffer) => void): void {
    let data = this.#pending.length ? Buffer.concat([this.#pending, chunk]) : chunk;
    this.#pending = Buffer.alloc(0);
    while (data.length && !this.#broken) {
      if (this.#need < 0) {
        const end = data.indexOf('\r\n\r\n');
        if (end < 0) {
          if (data.length > MAX_HEADER_BYTES) this.#broken = true;
          else this.#pending = Buffer.from(data);
          return;
        }
        const length = /content-length:\s*(\d+)/i.exec(data.subarray(0, end).toString('latin1'));
        if (!length) {
          this.#broken = true;
          return;
        }
        this.#need = Number(length[1]);
        this.#image = Buffer.allocUnsafe(this.#need);
        this.#filled = 0;
        data = data.subarray(end + 4);
        continue;
      }
      const n = Math.min(this.#need - this.#filled, data.length);
      data.copy(this.#image!, this.#filled, 0, n);
      this.#filled += n;
      data = data.subarray(n);
      if (this.#filled === this.#need) {
        const image = this.#image!;
        this.#image = null;
        this.#need = -1;
        onImage(image);
      }
    }
  }
}
