// workerd refuses a Durable Object call whose serialized arguments pass 32 MiB. V8
// serializes a string holding any character above U+00FF at 2 bytes per UTF-16 code
// unit, else at 1, so a 250-character name with one Cyrillic letter costs 500 bytes,
// and a batch within the documented body limit could pass the call's. A chunk is kept
// to a quarter of the limit: room for the serializer's headers and our own misjudgement.
const RPC_CHUNK_BYTES = 8 * 1024 * 1024;

const WIDE = /[\u0100-\uffff]/;

/** What a value costs in a structured clone (V8's serializer), to within a few bytes a value. */
export function cloneBytes(value: unknown): number {
  if (typeof value === "string") return 8 + value.length * (WIDE.test(value) ? 2 : 1);
  if (Array.isArray(value)) return value.reduce<number>((sum, element) => sum + cloneBytes(element), 8);
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).reduce<number>(
      (sum, [key, element]) => sum + cloneBytes(key) + cloneBytes(element),
      8,
    );
  }
  return 9;
}

/** Consecutive runs of `items` whose clones fit `budget` each (an item larger than it runs alone): one run for almost every batch. */
export function chunkByCloneBytes<T>(items: readonly T[], budget = RPC_CHUNK_BYTES): T[][] {
  const chunks: T[][] = [];
  let chunk: T[] = [];
  let bytes = 0;
  for (const item of items) {
    const size = cloneBytes(item);
    if (chunk.length > 0 && bytes + size > budget) {
      chunks.push(chunk);
      chunk = [];
      bytes = 0;
    }
    chunk.push(item);
    bytes += size;
  }
  chunks.push(chunk);
  return chunks;
}
