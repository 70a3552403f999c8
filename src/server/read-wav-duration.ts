/** What the gateway could learn about an uploaded audio file's length. */
export type UploadedAudioMeasure =
  /** a WAV of raw samples: its length as a player decodes it */
  | { kind: 'measured'; seconds: number }
  /** not a WAV of raw samples (another container, or a compressed WAV codec): held by the bytes-based ceiling */
  | { kind: 'unmeasured' }
  /** a WAV whose header describes no real audio; `reason` says which field */
  | { kind: 'implausible'; reason: string };

/** `fmt ` format tags whose data bytes are raw samples: PCM, IEEE float, A-law, µ-law; 0xFFFE carries one of them as a sub-format. */
const rawSampleFormats = new Set([1, 3, 6, 7]);
const extensibleFormat = 0xfffe;
/** What real audio uses: sample rates in Hz, channel counts, bits per sample. */
const minimumSampleRate = 8_000;
const maximumSampleRate = 384_000;
const maximumChannels = 8;
const bitDepths = new Set([8, 16, 24, 32, 64]);

/**
 * Measures a RIFF/WAVE upload the way a player decodes it: the bytes really present after the `data` chunk header
 * (to the end of the file) divided by sample rate × channels × bytes per sample. The header's byte rate, block align and
 * declared data size are never used, so a header that lies about them cannot make audio cheaper; a header whose
 * sample rate, channels or bit depth are outside what real audio uses is reported as implausible.
 */
export function readWavDuration(file: Buffer): UploadedAudioMeasure {
  if (file.length < 12 || file.toString('ascii', 0, 4) !== 'RIFF' || file.toString('ascii', 8, 12) !== 'WAVE')
    return { kind: 'unmeasured' };
  let format: WavFormat | undefined;
  let offset = 12;
  while (offset + 8 <= file.length) {
    const chunkId = file.toString('ascii', offset, offset + 4);
    const chunkSize = file.readUInt32LE(offset + 4);
    const chunkStart = offset + 8;
    if (chunkId === 'fmt ') format = readFormat(file, chunkStart, chunkSize);
    if (chunkId === 'data') return measureData(format, file.length - chunkStart);
    offset = chunkStart + chunkSize + (chunkSize % 2);
  }
  return { kind: 'unmeasured' };
}

/** The fields of a `fmt ` chunk that say how long its samples play. */
interface WavFormat {
  formatTag: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
}

function readFormat(file: Buffer, start: number, size: number): WavFormat | undefined {
  if (size < 16 || start + 16 > file.length) return undefined;
  let formatTag = file.readUInt16LE(start);
  // WAVE_FORMAT_EXTENSIBLE: the real format tag is the first two bytes of the sub-format GUID.
  if (formatTag === extensibleFormat)
    formatTag = size >= 40 && start + 26 <= file.length ? file.readUInt16LE(start + 24) : 0;
  return {
    formatTag,
    channels: file.readUInt16LE(start + 2),
    sampleRate: file.readUInt32LE(start + 4),
    bitsPerSample: file.readUInt16LE(start + 14),
  };
}

function measureData(format: WavFormat | undefined, dataBytes: number): UploadedAudioMeasure {
  if (!format || !rawSampleFormats.has(format.formatTag)) return { kind: 'unmeasured' };
  if (format.sampleRate < minimumSampleRate || format.sampleRate > maximumSampleRate) {
    return {
      kind: 'implausible',
      reason: `a sample rate of ${format.sampleRate} Hz (real audio uses ${minimumSampleRate} to ${maximumSampleRate})`,
    };
  }
  if (format.channels < 1 || format.channels > maximumChannels) {
    return { kind: 'implausible', reason: `${format.channels} channels (real audio uses 1 to ${maximumChannels})` };
  }
  if (!bitDepths.has(format.bitsPerSample)) {
    return {
      kind: 'implausible',
      reason: `${format.bitsPerSample} bits per sample (real audio uses ${[...bitDepths].join(', ')})`,
    };
  }
  const bytesPerSecond = (format.sampleRate * format.channels * format.bitsPerSample) / 8;
  return { kind: 'measured', seconds: Math.max(0, dataBytes) / bytesPerSecond };
}
