// A fake of test/fakes/ (a handler of Web Requests, as miniflare's outboundService calls it) served on
// 127.0.0.1 for the black-box tests, whose `wrangler dev` reaches it by its URL (e.g. HUBSPOT_API_URL).
import { createServer } from "node:http";

export interface LoopbackFake {
  url: string;
  close(): Promise<void>;
}

export async function serveOnLoopback(
  handle: (request: Request, url: URL) => Promise<Response>,
): Promise<LoopbackFake> {
  const server = createServer(async (incoming, outgoing) => {
    const chunks: Buffer[] = [];
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
    const url = new URL(incoming.url ?? "/", "http://127.0.0.1");
    const headers = new Headers();
    for (const [name, value] of Object.entries(incoming.headers))
      if (typeof value === "string") headers.set(name, value);
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const response = await handle(new Request(url, { method: incoming.method, headers, body }), url);
    outgoing.writeHead(response.status, Object.fromEntries(response.headers));
    // Streamed as the fake makes it (a body that stalls or trickles), and cancelled when the caller hangs up.
    const reader = response.body?.getReader();
    outgoing.on("close", () => void reader?.cancel().catch(() => undefined));
    for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) outgoing.write(read.value);
    outgoing.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { url: `http://127.0.0.1:${port}`, close };
}
