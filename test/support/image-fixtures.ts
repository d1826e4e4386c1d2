import { writeFileSync } from 'node:fs';
import { Jimp } from 'jimp';

/** A real PNG of the given size (a gradient, so it is a picture and not a blank). */
export async function writePng(path: string, width: number, height: number): Promise<Buffer> {
  const image = new Jimp({ width, height, color: 0xffffffff });
  image.scan((x, y, index) => {
    image.bitmap.data[index] = (x * 255) / width;
    image.bitmap.data[index + 1] = (y * 255) / height;
  });
  const bytes = await image.getBuffer('image/png');
  writeFileSync(path, bytes);
  return bytes;
}

/** A PNG of random noise with random alpha: it does not compress, so its size is about 4 bytes a pixel. */
export async function writeNoisePng(path: string, minBytes: number): Promise<Buffer> {
  const side = Math.ceil(Math.sqrt(minBytes / 4)) + 16;
  const image = new Jimp({ width: side, height: side, color: 0 });
  const data = image.bitmap.data;
  let seed = 12345;
  for (let i = 0; i < data.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    data[i] = seed >> 16;
  }
  const bytes = await image.getBuffer('image/png');
  writeFileSync(path, bytes);
  return bytes;
}
