/** Seconds of audio in a RIFF/WAVE file, from its `fmt ` byte rate and `data` size; undefined for other formats. */
export function readWavDurationSeconds(file: Buffer): number | undefined {
  if (file.length < 12 || file.toString('ascii', 0, 4) !== 'RIFF' || file.toString('ascii', 8, 12) !== 'WAVE') return undefined;
  let byteRate: number | undefined;
  let offset = 12;
  while (offset + 8 <= file.length) {
    const chunkId = file.toString('ascii', offset, offset + 4);
    const chunkSize = file.readUInt32LE(offset + 4);
    if (chunkId === 'fmt ' && offset + 16 <= file.length) byteRate = file.readUInt32LE(offset + 16);
    if (chunkId === 'data') {
      const dataBytes = Math.min(chunkSize, file.length - offset - 8);
      return byteRate ? dataBytes / byteRate : undefined;
    }
    offset += 8 + chunkSize + (chunkSize % 2);
  }
  return undefined;
}
