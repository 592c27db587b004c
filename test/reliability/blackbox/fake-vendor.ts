// A misbehaving Hunter and DNS resolver on loopback, for fault tests against
// wrangler dev: each call times out, fails with a 5xx, or answers, at random.
import { createServer, type Server } from "node:http";

export interface FakeVendor {
  url: string;
  callsPerPerson: Map<string, number>;
  close(): Promise<void>;
}

export async function startFakeVendor(options: {
  timeoutRate: number;
  errorRate: number;
  delayMs: number;
}): Promise<FakeVendor> {
  const callsPerPerson = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (url.pathname === "/dns-query") {
      response.writeHead(200, { "content-type": "application/dns-json" });
      response.end(
        JSON.stringify({
          Status: 0,
          Answer: [{ type: 15, TTL: 3600, data: `10 mx.${url.searchParams.get("name")}.` }],
        }),
      );
      return;
    }
    const person = `${url.searchParams.get("first_name")}.${url.searchParams.get("last_name")}@${url.searchParams.get("domain")}`;
    callsPerPerson.set(person, (callsPerPerson.get(person) ?? 0) + 1);
    const roll = Math.random();
    if (roll < options.timeoutRate) {
      setTimeout(() => response.end(), options.delayMs).unref();
      return;
    }
    if (roll < options.timeoutRate + options.errorRate) {
      response.writeHead(503).end("down");
      return;
    }
    response.writeHead(200, { "content-type": "application/json" });
    response.end(JSON.stringify({ data: { email: person, score: 91, verification: { status: "valid" } } }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    callsPerPerson,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
