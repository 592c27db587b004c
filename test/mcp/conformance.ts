// Runs @modelcontextprotocol/conformance's server scenarios against /mcp on `wrangler dev`, through a
// loopback proxy that adds an API key (the conformance client sends no headers):
//   npx tsx test/mcp/conformance.ts [--suite all] [--scenario name] [-o dir]
// Not part of .ci/run: it fetches the suite from npm, and most scenarios call the suite's own fixture tools,
// resources and prompts, which this server does not have (README "Use it from an AI assistant" lists the results).
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import { dirname } from "node:path";
import { Readable } from "node:stream";
import { startMcpTestServer } from "./server";

const running = await startMcpTestServer();
const proxy = createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string" && !["host", "connection", "content-length"].includes(name)) headers.set(name, value);
  }
  headers.set("x-api-key", running.keys.reader);
  const response = await fetch(`${running.server.url}${req.url}`, {
    method: req.method,
    headers,
    ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
  });
  const hopByHop = ["content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"];
  res.writeHead(
    response.status,
    Object.fromEntries([...response.headers].filter(([name]) => !hopByHop.includes(name))),
  );
  res.flushHeaders();
  if (!response.body) return res.end();
  // A stream the suite leaves open ends when the server stops: not a failure of the proxy.
  Readable.fromWeb(response.body as never)
    .on("error", () => res.destroy())
    .pipe(res);
});
await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
const { port } = proxy.address() as { port: number };
const args = process.argv.slice(2);
// Async: the proxy runs in this process's event loop. The suite needs Node 22 (fs.globSync): the
// node this script runs on (the project's) goes first on npx's PATH.
const child = spawn(
  "npx",
  ["--yes", "@modelcontextprotocol/conformance@0.1.16", "server", "--url", `http://127.0.0.1:${port}/mcp`, ...args],
  { stdio: "inherit", env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH}` } },
);
const status = await new Promise<number | null>((resolve) => child.on("exit", resolve));
proxy.close();
await running.server.stop();
process.exit(status ?? 1);
