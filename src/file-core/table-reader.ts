// Bytes in, CSV records out: decoding and delimiter sniffing in front of the
// tokenizer, chunk by chunk, so a file of any size is read in bounded memory.
import { type CsvRecord, CsvTokenizer, type Delimiter, sniffDelimiter } from "./csv-reader";
import { ByteDecoder, type Encoding } from "./encoding";

export interface TableReadOptions {
  encoding?: Encoding;
  delimiter?: Delimiter;
}

export class TableReader {
  readonly #decoder: ByteDecoder;
  #tokenizer: CsvTokenizer | undefined;
  #head = "";

  constructor(readonly options: TableReadOptions = {}) {
    this.#decoder = new ByteDecoder({ encoding: options.encoding });
  }

  get encoding(): Encoding | undefined {
    return this.#decoder.encoding;
  }

  get delimiter(): Delimiter | undefined {
    return this.#tokenizer?.delimiter;
  }

  /** May throw NotUtf8Error (see ByteDecoder): read the file again with { encoding: "windows-1252" }. */
  push(bytes: Uint8Array): CsvRecord[] {
    return this.#text(this.#decoder.push(bytes), false);
  }

  end(): CsvRecord[] {
    return this.#text(this.#decoder.end(), true);
  }

  #text(text: string, final: boolean): CsvRecord[] {
    if (!this.#tokenizer) {
      // The delimiter is sniffed from the header line, so wait for all of it.
      this.#head += text;
      if (!final && !/[\r\n]/.test(this.#head) && this.#head.length < 1 << 16) return [];
      this.#tokenizer = new CsvTokenizer(this.options.delimiter ?? sniffDelimiter(this.#head));
      text = this.#head;
      this.#head = "";
    }
    return final ? [...this.#tokenizer.push(text), ...this.#tokenizer.end()] : this.#tokenizer.push(text);
  }
}
