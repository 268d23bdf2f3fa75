import { crc32, deflateSync } from 'node:zlib';

const chunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
};

/** A real (decodable) 8-bit RGB PNG, `width` × `height` pixels, each coloured by `rgb(x, y)`. */
export function rgbPng(
  width: number,
  height: number,
  rgb: (x: number, y: number) => readonly [number, number, number],
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const stride = 1 + width * 3; // each row starts with its filter byte (0: none)
  const pixels = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) pixels.set(rgb(x, y), y * stride + 1 + x * 3);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG of one colour, for upload tests. */
export function solidPng(
  width: number,
  height: number,
  rgb: [number, number, number] = [26, 79, 139],
): Buffer {
  return rgbPng(width, height, () => rgb);
}
