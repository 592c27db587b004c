import { type ChildProcess, spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, type ServerKey, seedKeys, startLocalServer } from "../../scripts/local-server";
import { runTool } from "../blackbox-helpers";
import { until } from "../until";

// The key tool writes the store a running `wrangler dev` serves from, on a busy machine (both
// cores spun by loops of this test), and the server is called right after each command on the
// connection opened before it (fetch keeps connections alive). Issue 25's `fetch failed` was
// that: the tool run synchronously, longer than the 15 s after which the server closes an idle
// connection, so the caller never saw the close and sent its next request on a closed
// connection. A tool run now takes one runtime, not up to six, but a busy machine still makes
// it longer than 15 s, so the tools are run without blocking (runTool).
let server: LocalServer;
let kept: ServerKey;
let revoked: ServerKey;
const spinners: ChildProcess[] = [];
const toolSeconds: number[] = [];

beforeAll(async () => {
  server = await startLocalServer({
    prepare: async (state) => {
      [kept, revoked] = (await seedKeys(state, [
        { customerId: "cus_while_serving", environment: "test" },
        { customerId: "cus_while_serving_revoked", environment: "test" },
      ])) as [ServerKey, ServerKey];
    },
    // Cached key records live API_KEY_CACHE_TTL_SECONDS (60 s in wrangler.toml): the least
    // the configuration takes, so the test waits out half of it.
    vars: { API_KEY_CACHE_TTL_SECONDS: "30" },
  });
  for (let core = 0; core < 2; core++)
    spinners.push(spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
}, 120_000);

/** The machine is busy while the commands run; waiting out the key cache needs no busy machine. */
function stopSpinners() {
  for (const spinner of spinners) spinner.kill("SIGKILL");
}

afterAll(async () => {
  stopSpinners();
  await server?.stop();
  console.log(`the key tool took ${toolSeconds.join(", ")} s`);
});

/** The key tool as an operator runs it, `npm run keys -- …`, against the server's store. */
async function keys(...args: string[]): Promise<string> {
  const started = performance.now();
  const result = await runTool("npm", ["run", "--silent", "keys", "--", ...args, "--persist-to", server.state], {
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });
  toolSeconds.push(Math.round((performance.now() - started) / 100) / 10);
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

const limits = (key: ServerKey) => fetch(`${server.url}/v2/test/me/rate-limits`, { headers: { "x-api-key": key.key } });

async function statusLimit(): Promise<number | undefined> {
  const response = await limits(kept);
  const body = await response.json<{ endpointType: string; limit: number }[]>();
  return body.find((entry) => entry.endpointType === "contact_info_status")?.limit;
}

describe("the key tool while wrangler dev serves from its store, on a busy machine", () => {
  it("the request right after each command is answered, and the server serves what the commands wrote", async () => {
    for (const limit of [501, 502]) {
      expect((await limits(kept)).status).toBe(200); // a connection the next request will reuse
      await keys(
        "set-limits",
        kept.keyId,
        "--endpoint-type",
        "contact_info_status",
        "--limit",
        String(limit),
        "--window",
        "60",
      );
      expect((await limits(kept)).status).toBe(200);
    }
    expect((await limits(revoked)).status).toBe(200);
    await keys("revoke", revoked.keyId);
    expect([200, 401]).toContain((await limits(revoked)).status);
    stopSpinners();

    // Cached key records live API_KEY_CACHE_TTL_SECONDS (30 s here).
    await until(statusLimit, {
      what: "the last limit set",
      done: (limit) => limit === 502,
      timeoutMs: 60_000,
      intervalMs: 1_000,
    });
    await until(async () => (await limits(revoked)).status, {
      what: "the revoked key refused",
      done: (status) => status === 401,
      timeoutMs: 60_000,
      intervalMs: 1_000,
    });
  }, 400_000);
});
