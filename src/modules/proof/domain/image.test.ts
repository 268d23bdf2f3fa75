import { describe, expect, it } from 'vitest';
import { sniffImage } from './image.ts';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10, 0x4a, 0x46, 0x49, 0x46, 0]);
const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x24, 0, 0, 0]),
  Buffer.from('WEBPVP8 '),
  Buffer.alloc(8),
]);

describe('image types by magic bytes', () => {
  it('knows JPEG, PNG and WebP (lossy, lossless, extended)', () => {
    expect(sniffImage(JPEG)).toBe('image/jpeg');
    expect(sniffImage(PNG)).toBe('image/png');
    expect(sniffImage(WEBP)).toBe('image/webp');
    expect(sniffImage(Buffer.concat([WEBP.subarray(0, 12), Buffer.from('VP8L')]))).toBe(
      'image/webp',
    );
    expect(sniffImage(Buffer.concat([WEBP.subarray(0, 12), Buffer.from('VP8X')]))).toBe(
      'image/webp',
    );
  });

  it('refuses everything else, however it is named', () => {
    const others = [
      Buffer.from('GIF89a'),
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      Buffer.from('<html><script>alert(1)</script>'),
      Buffer.from('%PDF-1.7'),
      Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt ')]),
      Buffer.from([0xff, 0xd8]),
      PNG.subarray(0, 7),
      Buffer.alloc(0),
    ];
    for (const bytes of others) expect(sniffImage(bytes), bytes.toString('latin1')).toBeUndefined();
  });
});
