// A tiny but structurally valid MP4 (ISO base media file): `ftyp`, a `moov` holding a `mvhd` movie header with the
// video's duration, and an empty `mdat`. Built in code so no tool (ffmpeg) is needed at test time.

/** One ISO-BMFF box: a 32-bit big-endian size (header included), a four-letter type, then the payload. */
function box(type: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + payload.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, payload]);
}

/** `ftyp`: major brand `isom`, minor version 512, compatible with isom, iso2 and mp41 (what encoders write). */
function fileTypeBox(): Buffer {
  const payload = Buffer.alloc(4 + 4 + 4 * 3);
  payload.write('isom', 0, 'latin1');
  payload.writeUInt32BE(512, 4);
  ['isom', 'iso2', 'mp41'].forEach((brand, index) => payload.write(brand, 8 + index * 4, 'latin1'));
  return box('ftyp', payload);
}

/** `mvhd` version 0: timescale 1000 (milliseconds), the duration, rate 1.0, volume 1.0, the unity matrix. */
function movieHeaderBox(seconds: number): Buffer {
  const payload = Buffer.alloc(100);
  payload.writeUInt32BE(1000, 12); // timescale, after version/flags, creation and modification times
  payload.writeUInt32BE(Math.round(seconds * 1000), 16);
  payload.writeUInt32BE(0x0001_0000, 20); // rate 1.0 (16.16 fixed point)
  payload.writeUInt16BE(0x0100, 24); // volume 1.0 (8.8 fixed point)
  const unityMatrix = [0x0001_0000, 0, 0, 0, 0x0001_0000, 0, 0, 0, 0x4000_0000];
  unityMatrix.forEach((value, index) => payload.writeUInt32BE(value, 36 + index * 4));
  payload.writeUInt32BE(1, 96); // next track id
  return box('mvhd', payload);
}

/** The bytes of a tiny MP4 whose movie header says it lasts `seconds`. */
export function createTinyMp4(seconds: number): Buffer {
  return Buffer.concat([fileTypeBox(), box('moov', movieHeaderBox(seconds)), box('mdat', Buffer.alloc(0))]);
}

/** A tiny WebP (RIFF container) for Sora's `thumbnail` variant. */
export const tinyWebp = Buffer.concat([
  Buffer.from('RIFF', 'latin1'),
  Buffer.from([4, 0, 0, 0]),
  Buffer.from('WEBP', 'latin1'),
]);

/** A tiny JPEG (start and end of image markers) for Sora's `spritesheet` variant. */
export const tinyJpeg = Buffer.from([0xff, 0xd8, 0xff, 0xd9]);
