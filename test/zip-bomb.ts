// An .xlsx-looking zip whose sheet part inflates to `inflatedMB` MB of spaces while the file stays
// about a thousandth of that: the shape of the attack in issue 46 (a 1 MB workbook inflating to 1 GB).
// Built without inflating anything: one deflated megabyte of spaces, sync-flushed to a byte boundary,
// is a run of blocks that reads only the window before it (spaces too), so it is repeated; a final
// empty block ends the stream. `declaredMB` is what the zip directory says the part inflates to
// (a directory can lie; default: the truth).
import { Deflate } from "fflate";

const MB = 1024 * 1024;

function deflatedSpaces(megabytes: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  const stream = new Deflate({ level: 9 }, (chunk) => chunks.push(chunk));
  const spaces = new Uint8Array(MB).fill(0x20);
  stream.push(spaces);
  stream.flush(true);
  const first = join(chunks.splice(0));
  stream.push(spaces);
  stream.flush(true);
  const next = join(chunks.splice(0));
  return join([first, ...Array.from({ length: megabytes - 1 }, () => next), Uint8Array.of(0x03, 0x00)]);
}

function join(parts: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.length;
  }
  return joined;
}

interface Entry {
  name: string;
  method: 0 | 8;
  data: Uint8Array;
  size: number;
}

/** A zip of `entries` (no CRCs: no reader we use checks them before the limit does). */
function zip(entries: readonly Entry[]): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const { name, method, data, size } of entries) {
    const nameBytes = new TextEncoder().encode(name);
    const local = new Uint8Array(30 + nameBytes.length);
    const view = new DataView(local.buffer);
    view.setUint32(0, 0x04034b50, true);
    view.setUint16(4, 20, true);
    view.setUint16(8, method, true);
    view.setUint32(18, data.length, true);
    view.setUint32(22, size, true);
    view.setUint16(26, nameBytes.length, true);
    local.set(nameBytes, 30);
    const central = new Uint8Array(46 + nameBytes.length);
    const cview = new DataView(central.buffer);
    cview.setUint32(0, 0x02014b50, true);
    cview.setUint16(4, 20, true);
    cview.setUint16(6, 20, true);
    cview.setUint16(10, method, true);
    cview.setUint32(20, data.length, true);
    cview.setUint32(24, size, true);
    cview.setUint16(28, nameBytes.length, true);
    cview.setUint32(42, offset, true);
    central.set(nameBytes, 46);
    locals.push(local, data);
    centrals.push(central);
    offset += local.length + data.length;
  }
  const directory = join(centrals);
  const end = new Uint8Array(22);
  const eview = new DataView(end.buffer);
  eview.setUint32(0, 0x06054b50, true);
  eview.setUint16(8, entries.length, true);
  eview.setUint16(10, entries.length, true);
  eview.setUint32(12, directory.length, true);
  eview.setUint32(16, offset, true);
  return join([...locals, directory, end]);
}

/** The bomb's bytes: `[Content_Types].xml`, then `xl/worksheets/sheet1.xml` inflating to `inflatedMB` MB. */
export function xlsxBomb(inflatedMB: number, declaredMB = inflatedMB): Uint8Array {
  const types = new TextEncoder().encode('<?xml version="1.0"?><Types/>');
  return zip([
    { name: "[Content_Types].xml", method: 0, data: types, size: types.length },
    {
      name: "xl/worksheets/sheet1.xml",
      method: 8,
      data: deflatedSpaces(inflatedMB),
      size: Math.min(declaredMB * MB, 0xffffffff),
    },
  ]);
}
