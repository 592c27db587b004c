// Bytes to text without ever guessing silently: a BOM decides; otherwise UTF-8
// if every byte sequence is valid, else Windows-1252 (what Excel on Windows
// saves), said in a notice. Streaming: bytes come in chunks.

export const ENCODINGS = ["utf-8", "utf-16le", "utf-16be", "windows-1252"] as const;
export type Encoding = (typeof ENCODINGS)[number];

/** Accepts the names people type: "utf8", "UTF-16LE", "cp1252", "latin1". */
export function parseEncoding(name: string): Encoding | undefined {
  const key = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  const aliases: Record<string, Encoding> = {
    utf8: "utf-8",
    utf16le: "utf-16le",
    utf16be: "utf-16be",
    windows1252: "windows-1252",
    cp1252: "windows-1252",
    latin1: "windows-1252",
    iso88591: "windows-1252",
  };
  return aliases[key];
}

/** The encoding a byte order mark names, and its length; undefined without one. */
function sniffBom(bytes: Uint8Array): { encoding: Encoding; length: number } | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return { encoding: "utf-8", length: 3 };
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return { encoding: "utf-16le", length: 2 };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return { encoding: "utf-16be", length: 2 };
  return undefined;
}

/** Thrown when a file read as UTF-8 (no BOM, no override) turns out not to be: read it again as Windows-1252. */
export class NotUtf8Error extends Error {
  override readonly name = "NotUtf8Error";
}

// Windows-1252's 0x80–0x9F (WHATWG index); the rest of the bytes are Latin-1. Used where the platform's
// TextDecoder lacks the encoding (some runtimes ship only UTF-8 and UTF-16).
const CP1252_HIGH =
  "\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178";

function platformDecoder(encoding: Encoding): TextDecoder | undefined {
  try {
    return new TextDecoder(encoding, { fatal: true, ignoreBOM: true });
  } catch {
    return undefined;
  }
}

/** A streaming decoder for one encoding; chunks may split a character anywhere. */
interface ChunkDecoder {
  decode(bytes: Uint8Array, final: boolean): string;
}

function windows1252Fallback(): ChunkDecoder {
  return {
    decode: (bytes) => {
      let text = "";
      for (const byte of bytes)
        text += byte >= 0x80 && byte < 0xa0 ? CP1252_HIGH[byte - 0x80] : String.fromCharCode(byte);
      return text;
    },
  };
}

function chunkDecoder(encoding: Encoding): ChunkDecoder {
  const decoder = platformDecoder(encoding);
  if (!decoder) {
    if (encoding === "windows-1252") return windows1252Fallback();
    throw new Error(`this platform cannot decode ${encoding}`);
  }
  return {
    decode: (bytes, final) => {
      try {
        return decoder.decode(bytes, { stream: !final });
      } catch {
        // Fatal mode: a malformed sequence. UTF-16 with a BOM that does not hold is not something to guess at.
        throw encoding === "utf-8" ? new NotUtf8Error("not UTF-8") : new Error(`the file is not valid ${encoding}`);
      }
    },
  };
}

export interface DecodeOptions {
  /** Forces an encoding; a BOM matching it is still dropped. */
  encoding?: Encoding;
}

/**
 * Decodes a byte stream chunk by chunk. The first chunk decides (BOM, or the
 * override); without either it is UTF-8, and NotUtf8Error is thrown at the first
 * invalid sequence so the caller reads the file again with { encoding: "windows-1252" }.
 */
export class ByteDecoder {
  #decoder: ChunkDecoder | undefined;
  #pending: Uint8Array = new Uint8Array(0);
  encoding: Encoding | undefined;
  bom = false;

  constructor(readonly options: DecodeOptions = {}) {}

  push(bytes: Uint8Array): string {
    return this.#decode(bytes, false);
  }

  end(): string {
    return this.#decode(new Uint8Array(0), true);
  }

  #decode(bytes: Uint8Array, final: boolean): string {
    if (!this.#decoder) {
      const joined = concat(this.#pending, bytes);
      if (joined.length < 3 && !final) {
        this.#pending = joined;
        return "";
      }
      const bom = sniffBom(joined);
      this.encoding = this.options.encoding ?? bom?.encoding ?? "utf-8";
      this.bom = bom !== undefined && bom.encoding === this.encoding;
      this.#decoder = chunkDecoder(this.encoding);
      bytes = this.bom ? joined.subarray(bom!.length) : joined;
      this.#pending = new Uint8Array(0);
    }
    return this.#decoder.decode(bytes, final);
  }
}

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  if (a.length === 0) return b;
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a);
  joined.set(b, a.length);
  return joined;
};

/** A whole file's text, with the encoding used and a notice when it was not UTF-8 nor named by a BOM. */
export function decodeBytes(
  bytes: Uint8Array,
  options: DecodeOptions = {},
): { text: string; encoding: Encoding; notice?: string } {
  try {
    const decoder = new ByteDecoder(options);
    const text = decoder.push(bytes) + decoder.end();
    return { text, encoding: decoder.encoding! };
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    const decoder = new ByteDecoder({ encoding: "windows-1252" });
    return { text: decoder.push(bytes) + decoder.end(), encoding: "windows-1252", notice: WINDOWS_1252_NOTICE };
  }
}

export const WINDOWS_1252_NOTICE =
  "the file is not valid UTF-8; read it as Windows-1252 (what Excel on Windows saves); pass --encoding to choose another";
