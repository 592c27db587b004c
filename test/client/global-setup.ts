// The client suite's one `wrangler dev` (server.ts), shared by its files: they run one after
// another, each with batches of its own, and none depends on what the others left.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { hubspot } from "../fakes/hubspot";
import { serveOnLoopback } from "../fakes/loopback";
import { startClientTestServer } from "./server";

export default async function startSharedServer(project: TestProject) {
  const logs = mkdtempSync(join(tmpdir(), "client-server-"));
  const hubspotFake = await serveOnLoopback(hubspot);
  const { server, shared } = await startClientTestServer(join(logs, "server.log"), hubspotFake.url);
  project.provide("clientServer", shared);
  return async () => {
    await server.stop();
    await hubspotFake.close();
    rmSync(logs, { recursive: true, force: true });
  };
}
