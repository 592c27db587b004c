// How far a workbook would inflate, checked before the XLSX library unpacks it (issue 46, item 10):
// a 1 MB file can hold a part that inflates to 1 GB, and the library (fflate underneath) would
// allocate what the zip directory declares and fill it. The directory is read the way fflate reads
// it (the end record, then each central entry and its local header), so the parts checked are the
// parts it would unpack. Declared sizes are checked first; since a directory can lie, each part is
// then inflated as a stream whose output is counted and dropped, stopping at the limit.
import { Inflate } from "fflate";
import { MAX_INFLATED_BYTES, WorkbookTooLargeError } from "./inflation-limit";

const END_RECORD = 0x06054b50;
const ZIP64_END_LOCATOR = 0x07064b50;
const ZIP64_END_RECORD = 0x06064b50;
const CENTRAL_ENTRY = 0x02014b50;
const STORED = 0;
const DEFLATED = 8;
const UNSET_32 = 0xffffffff;
// The input a stream step inflates: deflate expands at most about 1,032 times, so one step's output stays small.
const STEP_BYTES = 8 * 1024;

/** A part the reader unpacks: read-excel-file reads only XML (filterZipArchiveEntry). */
const isUnpacked = (name: string) => name.endsWith(".xml") || name.endsWith(".xml.rels");

interface Part {
  method: number;
  declaredSize: number;
  compressedSize: number;
  /** Where its compressed bytes start. */
  start: number;
}

/** Throws WorkbookTooLargeError when the parts a reader unpacks would inflate past MAX_INFLATED_BYTES. */
export function checkInflation(bytes: Uint8Array): void {
  const parts = unpackedParts(bytes);
  // Not a zip fflate can read: the reader says so in its own words.
  if (!parts) return;
  let declared = 0;
  for (const part of parts) declared += part.declaredSize;
  if (declared > MAX_INFLATED_BYTES) throw new WorkbookTooLargeError();
  let inflated = 0;
  for (const part of parts) {
    const data = bytes.subarray(part.start, part.start + part.compressedSize);
    if (part.method === STORED) inflated += data.length;
    else if (part.method === DEFLATED) inflated = inflateCounting(data, inflated);
    if (inflated > MAX_INFLATED_BYTES) throw new WorkbookTooLargeError();
  }
}

/** `counted` plus what `data` inflates to, stopping as soon as the sum passes the limit. */
function inflateCounting(data: Uint8Array, counted: number): number {
  let total = counted;
  const stream = new Inflate((chunk) => {
    total += chunk.length;
    if (total > MAX_INFLATED_BYTES) throw new WorkbookTooLargeError();
  });
  try {
    for (let at = 0; at < data.length; at += STEP_BYTES) {
      const end = Math.min(at + STEP_BYTES, data.length);
      stream.push(data.subarray(at, end), end === data.length);
    }
  } catch (error) {
    if (error instanceof WorkbookTooLargeError) throw error;
    // Corrupt deflate data: the reader reports it.
  }
  return total;
}

const u16 = (bytes: Uint8Array, at: number) => (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8);
const u32 = (bytes: Uint8Array, at: number) => (u16(bytes, at) | (u16(bytes, at + 2) << 16)) >>> 0;
const u64 = (bytes: Uint8Array, at: number) => u32(bytes, at) + u32(bytes, at + 4) * 2 ** 32;

/** The unpacked parts, as fflate's unzip finds them; null when there is no directory to read. */
function unpackedParts(bytes: Uint8Array): Part[] | null {
  let end = bytes.length - 22;
  while (end >= 0 && u32(bytes, end) !== END_RECORD) {
    if (bytes.length - end > 65_558) return null;
    end--;
  }
  if (end < 0) return null;
  let count = u16(bytes, end + 10);
  let at = u32(bytes, end + 16);
  if (at === UNSET_32 || count === 0xffff) {
    const locator = end - 20;
    if (locator < 0 || u32(bytes, locator) !== ZIP64_END_LOCATOR) return null;
    const record = u64(bytes, locator + 8);
    if (u32(bytes, record) !== ZIP64_END_RECORD) return null;
    count = u64(bytes, record + 32);
    at = u64(bytes, record + 48);
  }
  const parts: Part[] = [];
  for (let index = 0; index < count; index++) {
    if (u32(bytes, at) !== CENTRAL_ENTRY) return null;
    const nameLength = u16(bytes, at + 28);
    const extraLength = u16(bytes, at + 30);
    const name = String.fromCharCode(...bytes.subarray(at + 46, at + 46 + nameLength));
    const sizes = zip64Sizes(bytes, at, at + 46 + nameLength, extraLength);
    if (isUnpacked(name)) {
      const local = sizes.localOffset;
      const start = local + 30 + u16(bytes, local + 26) + u16(bytes, local + 28);
      parts.push({ method: u16(bytes, at + 10), ...sizes, start });
    }
    at += 46 + nameLength + extraLength + u16(bytes, at + 32);
  }
  return parts;
}

/** An entry's sizes and local header, from its zip64 extra field where the 32-bit fields say so. */
function zip64Sizes(bytes: Uint8Array, entry: number, extra: number, extraLength: number) {
  let declaredSize = u32(bytes, entry + 24);
  let compressedSize = u32(bytes, entry + 20);
  let localOffset = u32(bytes, entry + 42);
  for (let field = extra; field + 4 <= extra + extraLength; field += 4 + u16(bytes, field + 2)) {
    if (u16(bytes, field) !== 1) continue;
    let value = field + 4;
    const next = () => {
      const read = u64(bytes, value);
      value += 8;
      return read;
    };
    if (declaredSize === UNSET_32) declaredSize = next();
    if (compressedSize === UNSET_32) compressedSize = next();
    if (localOffset === UNSET_32) localOffset = next();
  }
  return { declaredSize, compressedSize, localOffset };
}
