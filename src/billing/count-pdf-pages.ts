import { constants as zlibConstants, inflateSync } from 'node:zlib';
import { decodeByteRange, decodedByteLength, type Base64Payload } from './base64-payload.js';

/** Decoded bytes of one PDF scanned at most; a larger file is sampled (head, tail and evenly spaced windows). */
export const pdfScanBudgetBytes = 4 * 1024 * 1024;
/** Bytes of compressed object streams inflated at most per file (zip bombs stop here). */
const inflateBudgetBytes = 8 * 1024 * 1024;
/** Largest compressed object stream read. */
const objectStreamMaxBytes = 1024 * 1024;
const headWindowBytes = 1024 * 1024;
const tailWindowBytes = 1024 * 1024;
const middleWindowCount = 8;
/** Page counts above this are taken as this (a forged `/Count` must not overflow a hold). */
export const pdfMaxCountedPages = 10_000;
/** How far a dictionary is followed when reading its entries. */
const dictionaryMaxBytes = 64 * 1024;

/** What a scan of some PDF bytes found. */
interface PageEvidence {
  /** `/Type /Page` objects seen */
  pageObjects: number;
  /** the largest `/Count` of a `/Type /Pages` node seen: the root's is the document's page count */
  largestPagesCount: number;
}

/** What the whole bounded scan of one file saw. */
interface ScanState extends PageEvidence {
  /** inflate bytes still allowed */
  inflateBudget: number;
}

/**
 * Pages of a PDF, counted without parsing it: `/Type /Page` objects and the page tree's `/Count`, in the raw bytes
 * and in compressed object streams (where PDF 1.5+ writers such as pdfTeX put them). Bounded: at most
 * `pdfScanBudgetBytes` are decoded; beyond that, windows are sampled, and without a page tree in them the page
 * objects seen are extrapolated to the whole size. Returns 0 when no page evidence is found (encrypted, or pages outside the sampled windows).
 */
export function countPdfPages(payload: Base64Payload): number {
  const totalBytes = decodedByteLength(payload);
  const state: ScanState = { pageObjects: 0, largestPagesCount: 0, inflateBudget: inflateBudgetBytes };
  const windows = chooseScanWindows(totalBytes);
  let scannedBytes = 0;
  for (const [start, end] of windows) {
    const bytes = decodeByteRange(payload, start, end);
    scannedBytes += bytes.length;
    scanBytes(bytes, state, (relativeStart, relativeEnd) => decodeByteRange(payload, start + relativeStart, start + relativeEnd));
  }
  // Sampled without finding the page tree: assume the page objects seen are as dense in the rest of the file.
  const extrapolate = state.largestPagesCount === 0 && scannedBytes < totalBytes && scannedBytes > 0;
  const pageObjects = extrapolate ? Math.ceil((state.pageObjects * totalBytes) / scannedBytes) : state.pageObjects;
  return Math.min(pdfMaxCountedPages, Math.max(pageObjects, state.largestPagesCount));
}

/** Byte ranges to scan: the whole file when it fits the budget, else head, tail and evenly spaced middle windows. */
function chooseScanWindows(totalBytes: number): Array<[number, number]> {
  if (totalBytes <= pdfScanBudgetBytes) return [[0, totalBytes]];
  const windows: Array<[number, number]> = [[0, headWindowBytes]];
  const middleStart = headWindowBytes;
  const middleLength = totalBytes - headWindowBytes - tailWindowBytes;
  const middleWindowBytes = Math.floor((pdfScanBudgetBytes - headWindowBytes - tailWindowBytes) / middleWindowCount);
  for (let index = 0; index < middleWindowCount; index++) {
    const start = middleStart + Math.floor(((index + 0.5) * middleLength) / middleWindowCount - middleWindowBytes / 2);
    windows.push([Math.max(middleStart, start), Math.min(middleStart + middleLength, start + middleWindowBytes)]);
  }
  windows.push([totalBytes - tailWindowBytes, totalBytes]);
  return windows;
}

const typeKey = Buffer.from('/Type');

/**
 * Counts page evidence in `bytes`; object streams found are inflated (once, not recursively) and scanned too.
 * `readRange` reads bytes past the end of `bytes` (offsets relative to its start) for streams that cross it.
 */
function scanBytes(bytes: Buffer, state: ScanState, readRange: ((start: number, end: number) => Buffer) | undefined): void {
  let position = bytes.indexOf(typeKey);
  while (position >= 0) {
    const name = readNameAfter(bytes, position + typeKey.length);
    if (name === 'Page') state.pageObjects += 1;
    else if (name === 'Pages') state.largestPagesCount = Math.max(state.largestPagesCount, readPagesCount(bytes, position));
    else if (name === 'ObjStm' && readRange) scanObjectStream(bytes, position, state, readRange);
    position = bytes.indexOf(typeKey, position + typeKey.length);
  }
}

/** The PDF name (`/Name`) after optional white space at `offset`, or undefined. */
function readNameAfter(bytes: Buffer, offset: number): string | undefined {
  let index = skipWhiteSpace(bytes, offset);
  if (bytes[index] !== 0x2f /* / */) return undefined;
  const start = ++index;
  while (index < bytes.length && index - start < 16 && isRegularCharacter(bytes[index]!)) index++;
  return bytes.toString('latin1', start, index);
}

/** The `/Count` of the dictionary around a `/Type /Pages` entry (0 when unreadable). */
function readPagesCount(bytes: Buffer, typeOffset: number): number {
  const dictionary = enclosingDictionary(bytes, typeOffset);
  if (!dictionary) return 0;
  const match = /\/Count\s+(\d{1,9})/.exec(bytes.toString('latin1', dictionary.start, dictionary.end));
  return match ? Number(match[1]) : 0;
}

/** Inflates the object stream whose dictionary holds the `/Type /ObjStm` at `typeOffset`, and scans it. */
function scanObjectStream(bytes: Buffer, typeOffset: number, state: ScanState, readRange: (start: number, end: number) => Buffer): void {
  if (state.inflateBudget <= 0) return;
  const dictionary = enclosingDictionary(bytes, typeOffset);
  if (!dictionary) return;
  const entries = bytes.toString('latin1', dictionary.start, dictionary.end);
  const filter = /\/Filter\s*\[?\s*\/(\w+)/.exec(entries)?.[1];
  if (filter !== undefined && filter !== 'FlateDecode') return;
  const streamKeyword = /^\s*stream\r?\n/.exec(bytes.toString('latin1', dictionary.end, dictionary.end + 16));
  if (!streamKeyword) return;
  const dataStart = dictionary.end + streamKeyword[0].length;
  const declaredLength = /\/Length\s+(\d{1,9})(?!\d)(?!\s+\d+\s+R)/.exec(entries)?.[1];
  const length = Math.min(objectStreamMaxBytes, declaredLength === undefined ? objectStreamMaxBytes : Number(declaredLength));
  const data = dataStart + length <= bytes.length ? bytes.subarray(dataStart, dataStart + length) : readRange(dataStart, dataStart + length);
  const end = declaredLength === undefined ? data.indexOf('endstream') : data.length;
  const compressed = end >= 0 ? data.subarray(0, end) : data;
  let inflated: Buffer;
  try {
    // A sync flush at the end tolerates a stream cut by the window or the length cap.
    inflated = filter === undefined ? compressed : inflateSync(compressed, { maxOutputLength: state.inflateBudget, finishFlush: zlibConstants.Z_SYNC_FLUSH });
  } catch {
    // Encrypted, damaged or over the inflate budget: no evidence from this stream.
    state.inflateBudget -= compressed.length;
    return;
  }
  state.inflateBudget -= inflated.length;
  scanBytes(inflated, state, undefined);
}

/** The `<< ... >>` around `offset` (from the nearest `<<` before it to its matching `>>`), bounded. */
function enclosingDictionary(bytes: Buffer, offset: number): { start: number; end: number } | undefined {
  const start = bytes.lastIndexOf('<<', offset);
  if (start < 0 || offset - start > dictionaryMaxBytes) return undefined;
  let depth = 0;
  const limit = Math.min(bytes.length - 1, start + dictionaryMaxBytes);
  for (let index = start; index < limit; index++) {
    if (bytes[index] === 0x3c && bytes[index + 1] === 0x3c) {
      depth++;
      index++;
    } else if (bytes[index] === 0x3e && bytes[index + 1] === 0x3e) {
      depth--;
      index++;
      if (depth === 0) return { start, end: index + 1 };
    }
  }
  return undefined;
}

function skipWhiteSpace(bytes: Buffer, offset: number): number {
  let index = offset;
  while (index < bytes.length && isWhiteSpace(bytes[index]!)) index++;
  return index;
}

function isWhiteSpace(byte: number): boolean {
  return byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09 || byte === 0x0c || byte === 0x00;
}

/** PDF regular characters: anything but white space and the delimiters ()<>[]{}/%. */
function isRegularCharacter(byte: number): boolean {
  if (isWhiteSpace(byte)) return false;
  return !(byte === 0x28 || byte === 0x29 || byte === 0x3c || byte === 0x3e || byte === 0x5b || byte === 0x5d || byte === 0x7b || byte === 0x7d || byte === 0x2f || byte === 0x25);
}
