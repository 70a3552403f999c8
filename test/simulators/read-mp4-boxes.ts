// Reads the box tree of an MP4 far enough for tests to prove a body is a real ISO-BMFF file, not just bytes.

/** One box: its four-letter type, its payload and, for containers read, its children. */
export interface Mp4Box {
  type: string;
  payload: Buffer;
}

/** The boxes laid end to end in `bytes`; throws when a size runs past the end or is shorter than its header. */
export function readMp4Boxes(bytes: Buffer): Mp4Box[] {
  const boxes: Mp4Box[] = [];
  let offset = 0;
  while (offset < bytes.length) {
    if (offset + 8 > bytes.length) throw new Error(`truncated box header at ${offset}`);
    const size = bytes.readUInt32BE(offset);
    if (size < 8 || offset + size > bytes.length) throw new Error(`bad box size ${size} at ${offset}`);
    boxes.push({
      type: bytes.toString('latin1', offset + 4, offset + 8),
      payload: bytes.subarray(offset + 8, offset + size),
    });
    offset += size;
  }
  return boxes;
}

/** The duration in seconds a `moov`'s version-0 `mvhd` states. */
export function readMovieDurationSeconds(bytes: Buffer): number {
  const movie = readMp4Boxes(bytes).find((box) => box.type === 'moov');
  const header = movie ? readMp4Boxes(movie.payload).find((box) => box.type === 'mvhd') : undefined;
  if (!header) throw new Error('no moov/mvhd');
  return header.payload.readUInt32BE(16) / header.payload.readUInt32BE(12);
}
