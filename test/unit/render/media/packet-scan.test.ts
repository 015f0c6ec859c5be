/** ffprobe's packet lines to a stream's first shown time, end and counts (edit-list pre-roll left out). */
import { describe, expect, it } from 'vitest';
import { parsePacketScan } from '../../../../src/render/media/packet-scan.js';

describe('parsePacketScan', () => {
  it('leaves out the packets an edit list discards and ends at the last packet shown', () => {
    // As ffprobe prints an MP4 cut at 0.5 s: two discarded pre-roll packets, then three shown (1/15360 s base).
    const text = ['1/15360', '-1024,512,KD', '-512,512,_D', '0,512,K_', '512,512,__', '1024,512,__', ''].join(
      '\n',
    );
    expect(parsePacketScan(text)).toEqual({ first: 0, end: 1536 / 15360, shown: 3, discarded: 2 });
  });

  it('ends at the latest packet end whatever the order (B-frames), the time base after the packets too', () => {
    const text = ['0,20,K_', '40,20,__', '20,20,__', '1/1000'].join('\n');
    expect(parsePacketScan(text)).toEqual({ first: 0, end: 0.06, shown: 3, discarded: 0 });
  });

  it('finds the time base of a stream with side data, printed with an empty field after it', () => {
    // A phone clip's display matrix: ffprobe prints "1/15360," for the stream section.
    const text = ['-512,512,KD', '0,512,K_', '512,512,__', '1/15360,', ''].join('\n');
    expect(parsePacketScan(text)).toEqual({ first: 0, end: 1024 / 15360, shown: 2, discarded: 1 });
  });

  it('counts the packets without a time (MPEG-PS of small pictures) apart from the timed ones', () => {
    const text = ['48600,3600,K_', 'N/A,3600,K_', 'N/A,3600,K_', '113400,3600,K_', '1/90000,'].join('\n');
    expect(parsePacketScan(text)).toEqual({ first: 0.54, end: 1.3, shown: 2, discarded: 0, untimed: 2 });
  });

  it('starts where the first packet does (Opus: before 0)', () => {
    expect(parsePacketScan('1/1000\n-7,20,K_\n13,20,K_\n')).toMatchObject({ first: -0.007, end: 0.033 });
  });

  it('is null without a time base or without a timed packet', () => {
    expect(parsePacketScan('0,512,K_\n')).toBeNull();
    expect(parsePacketScan('1/1000\nN/A,20,K_\n')).toBeNull();
  });
});
