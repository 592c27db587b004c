// Pass 3 of the enrich command: the input read again, each row written with its
// result as the API pages the items back (batch by batch, in order), so neither
// the rows nor the results are ever all in memory (except for .xlsx output,
// which a zip needs whole).
import { once } from "node:events";
import { createWriteStream, renameSync, rmSync, writeFileSync } from "node:fs";
import type { BatchItem, Client } from "../client/src/index";
import {
  CSV_BOM,
  csvLine,
  type Delimiter,
  emptyTally,
  isBadRow,
  notSentCells,
  outputCells,
  outputHeader,
  type ResultCells,
  type RowTally,
  resultCells,
  rowItem,
  tallyRow,
  writeXlsx,
} from "../src/file-core/index";
import { CliError } from "./cli";
import type { Checked, Source } from "./enrich-passes";

/** Every item of the batches, in submission order, with its batch id. */
async function* batchItems(
  client: Client,
  batchIds: readonly string[],
): AsyncGenerator<{ batchId: string; item: BatchItem }> {
  for (const batchId of batchIds) {
    let index = 0;
    for await (const item of client.items(batchId)) {
      if (item.index !== index++)
        throw new CliError(`batch ${batchId} answered its items out of order; run the same command again`);
      yield { batchId, item };
    }
  }
}

/** Writes `out` (.csv or .xlsx) through a .partial file, so a failed run never leaves half a file under the name. */
export async function writeOutput(
  source: Source,
  checked: Checked,
  options: { out: string; delimiter: Delimiter; client: Client; batchIds: readonly string[] },
): Promise<RowTally> {
  const counted = emptyTally();
  const xlsx = /\.xlsx$/i.test(options.out);
  const partial = `${options.out}.partial`;
  const sheet: string[][] = [];
  const stream = xlsx ? undefined : createWriteStream(partial);
  const write = async (cells: string[]) => {
    if (!stream) return void sheet.push(cells);
    if (!stream.write(csvLine(cells, options.delimiter))) await once(stream, "drain");
  };
  const items = batchItems(options.client, options.batchIds);
  try {
    stream?.write(CSV_BOM);
    let header = true;
    for await (const record of source.records()) {
      if (isBadRow(record)) continue;
      if (header) {
        header = false;
        await write(outputHeader(record.cells, checked.width));
        continue;
      }
      const row = rowItem(record.cells, checked.mapping);
      let results: ResultCells;
      if ("problem" in row) {
        tallyRow(counted, row);
        results = notSentCells(row);
      } else {
        const next = await items.next();
        if (next.done)
          throw new CliError("the batches hold fewer items than the file has rows; run the same command again");
        const { batchId, item } = next.value;
        tallyRow(counted, item);
        results = resultCells(batchId, item, row.warnings);
      }
      await write(outputCells(record.cells, checked.width, results));
    }
    if (stream) {
      stream.end();
      await once(stream, "finish");
    } else writeFileSync(partial, new Uint8Array(await (await writeXlsx(sheet)).arrayBuffer()));
    renameSync(partial, options.out);
  } catch (error) {
    stream?.destroy();
    rmSync(partial, { force: true });
    const code = (error as { code?: string }).code;
    if (code && /^E[A-Z]+$/.test(code))
      throw new CliError(`cannot write ${options.out}: ${code}; check the path and its folder's permissions`);
    throw error;
  }
  return counted;
}
