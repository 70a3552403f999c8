import { promisify } from 'node:util';
import { constants as zlibConstants, inflate } from 'node:zlib';
import { decodeByteRange, decodedByteLength, type Base64Payload } from '../core/token-estimates/base64-payload.js';

/** Decoded bytes of one PDF scanned at most; a larger file is sampled (head, tail and evenly spaced windows). */
export const pdfScanBudgetBytes = 4 * 1024 * 1024;
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

/** What the bounded scan of one file saw in its raw bytes, and the compressed object streams it left to inflate. */
interface ScanState extends PageEvidence {
  /** FlateDecode object streams found, in file order, still compressed */
  compressedStreams: Buffer[];
}

/** A PDF's page count and whether every object stream that could hold pages was read. */
export interface PdfPageCount {
  /** pages counted (see countPdfPages), at most pdfMaxCountedPages */
  pages: number;
  /** false when compressed object streams were left unread (counted without decompressing, or past the budget) */
  complete: boolean;
}

/** Bytes a request may still have decompressed; shared by every file of one request, spent as streams are inflated. */
export interface DecompressionBudget {
  /** inflated bytes still allowed */
  remainingBytes: number;
}

const inflateAsync = promisify(inflate);

/**
 * Pages of a PDF, counted without parsing it: `/Type /Page` objects and the page tree's `/Count` in the raw bytes.
 * Bounded: at most `pdfScanBudgetBytes` are decoded; beyond that, windows are sampled, and without a page tree in them
 * the page objects seen are extrapolated to the whole size. Returns 0 when no page evidence is found (encrypted, or
 * pages outside the sampled windows). Nothing is decompressed here (see countPdfPagesWithinBudget), so pages kept in
 * compressed object streams are not seen.
 */
export function countPdfPages(payload: Base64Payload): number {
  return countPdfPagesUnread(payload).pages;
}

/** countPdfPages with whether it is complete: false when the file has compressed object streams it did not read. */
export function countPdfPagesUnread(payload: Base64Payload): PdfPageCount {
  const scan = scanPdf(payload);
  return { pages: pageCountOf(scan.state, scan.extrapolation), complete: scan.state.compressedStreams.length === 0 };
}

/**
 * Pages of a PDF as countPdfPages sees them, plus those in its compressed object streams (where PDF 1.5+ writers such
 * as pdfTeX put them), inflated with zlib's asynchronous API (on libuv's thread pool, off the main thread) until
 * `budget` is spent. Each stream may inflate to at most what is left of the budget; a stream past it, or any left
 * once the budget is spent, makes the count incomplete.
 */
export async function countPdfPagesWithinBudget(
  payload: Base64Payload,
  budget: DecompressionBudget,
): Promise<PdfPageCount> {
  const { state, extrapolation } = scanPdf(payload);
  let complete = true;
  for (const compressed of state.compressedStreams) {
    if (budget.remainingBytes <= 0) {
      complete = false;
      break;
    }
    const inflated = await inflateWithin(compressed, budget);
    if (inflated === undefined) complete = false;
    else scanBytes(inflated, state, undefined);
  }
  return { pages: pageCountOf(state, extrapolation), complete };
}

/** The inflated stream, its bytes taken from the budget; undefined when it would inflate past the budget. */
async function inflateWithin(compressed: Buffer, budget: DecompressionBudget): Promise<Buffer | undefined> {
  try {
    // A sync flush at the end tolerates a stream cut by the window or the length cap.
    const inflated = await inflateAsync(compressed, {
      maxOutputLength: budget.remainingBytes,
      finishFlush: zlibConstants.Z_SYNC_FLUSH,
    });
    budget.remainingBytes -= inflated.length;
    return inflated;
  } catch (error) {
    if (isOverOutputLimit(error)) {
      budget.remainingBytes = 0;
      return undefined;
    }
    // Encrypted or damaged: no evidence from this stream, and nothing more to learn by inflating it again.
    budget.remainingBytes -= compressed.length;
    return Buffer.alloc(0);
  }
}

function isOverOutputLimit(error: unknown): boolean {
  return (
    error instanceof RangeError || (error instanceof Error && 'code' in error && error.code === 'ERR_BUFFER_TOO_LARGE')
  );
}

/** How far a sampled scan saw: the bytes scanned and the file's size, for extrapolating page objects. */
interface Extrapolation {
  scannedBytes: number;
  totalBytes: number;
}

/** Scans the raw bytes (or sampled windows) of the file, collecting compressed object streams without inflating them. */
function scanPdf(payload: Base64Payload): { state: ScanState; extrapolation: Extrapolation } {
  const totalBytes = decodedByteLength(payload);
  const state: ScanState = { pageObjects: 0, largestPagesCount: 0, compressedStreams: [] };
  let scannedBytes = 0;
  for (const [start, end] of chooseScanWindows(totalBytes)) {
    const bytes = decodeByteRange(payload, start, end);
    scannedBytes += bytes.length;
    scanBytes(bytes, state, (relativeStart, relativeEnd) =>
      decodeByteRange(payload, start + relativeStart, start + relativeEnd),
    );
  }
  return { state, extrapolation: { scannedBytes, totalBytes } };
}

/** The page count from the evidence: the page tree's count, or page objects (extrapolated when the file was sampled without a page tree). */
function pageCountOf(evidence: PageEvidence, { scannedBytes, totalBytes }: Extrapolation): number {
  // Sampled without finding the page tree: assume the page objects seen are as dense in the rest of the file.
  const extrapolate = evidence.largestPagesCount === 0 && scannedBytes < totalBytes && scannedBytes > 0;
  const pageObjects = extrapolate
    ? Math.ceil((evidence.pageObjects * totalBytes) / scannedBytes)
    : evidence.pageObjects;
  return Math.min(pdfMaxCountedPages, Math.max(pageObjects, evidence.largestPagesCount));
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
 * Counts page evidence in `bytes`; object streams found are collected (uncompressed ones scanned at once), not in
 * inflated ones (`readRange` undefined): no recursion. `readRange` reads bytes past the end of `bytes` (offsets
 * relative to its start) for streams that cross it.
 */
function scanBytes(
  bytes: Buffer,
  state: ScanState,
  readRange: ((start: number, end: number) => Buffer) | undefined,
): void {
  let position = bytes.indexOf(typeKey);
  while (position >= 0) {
    const name = readNameAfter(bytes, position + typeKey.length);
    if (name === 'Page') state.pageObjects += 1;
    else if (name === 'Pages')
      state.largestPagesCount = Math.max(state.largestPagesCount, readPagesCount(bytes, position));
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

/** Collects the object stream whose dictionary holds the `/Type /ObjStm` at `typeOffset`; an uncompressed one is scanned at once. */
function scanObjectStream(
  bytes: Buffer,
  typeOffset: number,
  state: ScanState,
  readRange: (start: number, end: number) => Buffer,
): void {
  const dictionary = enclosingDictionary(bytes, typeOffset);
  if (!dictionary) return;
  const entries = bytes.toString('latin1', dictionary.start, dictionary.end);
  const filter = /\/Filter\s*\[?\s*\/(\w+)/.exec(entries)?.[1];
  if (filter !== undefined && filter !== 'FlateDecode') return;
  const streamKeyword = /^\s*stream\r?\n/.exec(bytes.toString('latin1', dictionary.end, dictionary.end + 16));
  if (!streamKeyword) return;
  const dataStart = dictionary.end + streamKeyword[0].length;
  const declaredLength = /\/Length\s+(\d{1,9})(?!\d)(?!\s+\d+\s+R)/.exec(entries)?.[1];
  const length = Math.min(
    objectStreamMaxBytes,
    declaredLength === undefined ? objectStreamMaxBytes : Number(declaredLength),
  );
  const data =
    dataStart + length <= bytes.length
      ? bytes.subarray(dataStart, dataStart + length)
      : readRange(dataStart, dataStart + length);
  const end = declaredLength === undefined ? data.indexOf('endstream') : data.length;
  const stream = end >= 0 ? data.subarray(0, end) : data;
  if (filter === undefined) scanBytes(stream, state, undefined);
  else state.compressedStreams.push(stream);
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
  return !(
    byte === 0x28 ||
    byte === 0x29 ||
    byte === 0x3c ||
    byte === 0x3e ||
    byte === 0x5b ||
    byte === 0x5d ||
    byte === 0x7b ||
    byte === 0x7d ||
    byte === 0x2f ||
    byte === 0x25
  );
}
