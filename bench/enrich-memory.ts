// npm run bench:enrich-memory [-- MEGABYTES] (1 in a smoke, BENCH_SMOKE=1; it writes no results either way)
// The enrich command's peak memory on a big CSV (100 MB by default): the real
// command, run as a user runs it, against an in-process stand-in for the API that
// answers every batch at once (so what is measured is the command, not a server).
// Prints the peak resident set size that /usr/bin/time reports; exits 1 over 500 MB.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createWriteStream, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sized } from "./smoke";

const megabytes = Number(process.argv[2] ?? sized(100, 1));
// The done-when of issue 24: 100 MB of CSV enriched within 500 MB (measured: 205 MB peak).
const LIMIT_MB = 500;
const scratch = mkdtempSync(join(tmpdir(), "enrich-memory-"));
const input = join(scratch, "big.csv");

async function writeBigCsv(): Promise<number> {
  const out = createWriteStream(input);
  out.write("Record ID,First Name,Last Name,Company,Website,Email,Notes\r\n");
  let rows = 0;
  while (out.bytesWritten + out.writableLength < megabytes * 1_000_000) {
    const line = `crm-${rows},Ada${rows},Lovelace,"Analytical ${rows % 97}, Ltd.",https://www.acme${rows % 97}.example/about,ada${rows}@acme${rows % 97}.example,"a note, with ""quotes"" and more text to fill the row"\r\n`;
    if (!out.write(line)) await once(out, "drain");
    rows++;
  }
  out.end();
  await once(out, "finish");
  return rows;
}

// The stand-in keeps only each batch's size.
const batches: number[] = [];
const server = createServer(async (request, response) => {
  const url = new URL(request.url ?? "/", "http://localhost");
  const json = (status: number, body: unknown) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  };
  if (request.method === "POST") {
    let body = "";
    for await (const chunk of request) body += chunk;
    batches.push((JSON.parse(body) as { items: unknown[] }).items.length);
    return json(202, { batchId: `b${batches.length - 1}`, status: "pending", totalItems: batches.at(-1) });
  }
  // The month's budget, which the command prints before it submits: none set.
  if (url.pathname.endsWith("/me/budget"))
    return json(200, {
      monthlyCredits: null,
      usedThisMonth: 0,
      reserved: 0,
      remaining: null,
      resetsAt: "2026-12-01T00:00:00.000Z",
      alertPercents: [50, 80, 100],
    });
  const id = Number(url.pathname.split("/").at(-1)?.slice(1));
  const total = batches[id] ?? 0;
  const limit = Number(url.searchParams.get("limit") ?? 1000);
  const start = Number(url.searchParams.get("cursor") ?? 0);
  const end = Math.min(total, start + limit);
  const items = Array.from({ length: end - start }, (_, k) => ({
    index: start + k,
    status: "completed",
    outcome: "found",
    emails: [
      { address: `x${start + k}@acme.example`, type: "work", status: "valid", confidence: 0.9, source: "directory" },
    ],
    phones: [],
    error: null,
  }));
  json(200, {
    batchId: `b${id}`,
    status: "completed",
    totalItems: total,
    completedItems: total,
    failedItems: 0,
    creditsCharged: total,
    items,
    nextCursor: end < total ? String(end) : null,
  });
});

const rows = await writeBigCsv();
server.listen(0, "127.0.0.1");
await once(server, "listening");
const { port } = server.address() as { port: number };
console.log(`input: ${(statSync(input).size / 1e6).toFixed(1)} MB, ${rows} rows`);
const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
  // GNU time reports the largest resident set of the command's processes (npx, tsx, the command's node).
  const args = [
    "scripts/enrich.ts",
    input,
    "--base-url",
    `http://127.0.0.1:${port}`,
    "--api-key",
    `ck_test_${"m".repeat(32)}`,
  ];
  const child = spawn("/usr/bin/time", ["-f", "peak-rss-kb %M", "npx", "tsx", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  child.once("exit", (status) => resolve({ status, stdout, stderr }));
});
server.close();
const output = join(scratch, "big.enriched.csv");
const peakKb = Number(/peak-rss-kb (\d+)/.exec(run.stderr)?.[1]);
console.log(run.stdout.trim().split("\n").at(-1));
console.log(`output: ${(statSync(output, { throwIfNoEntry: false })?.size ?? 0) / 1e6} MB`);
console.log(`peak RSS: ${(peakKb / 1024).toFixed(0)} MB (limit ${LIMIT_MB} MB)`);
rmSync(scratch, { recursive: true, force: true });
if (run.status !== 0 || !(peakKb / 1024 < LIMIT_MB)) {
  console.error(run.stderr.trim().split("\n").slice(-3).join("\n"));
  process.exitCode = 1;
}
