import { describe, expect, it } from "vitest";
import { until } from "../until";
import { runTool } from "./run-tool";
import { clientTestServer } from "./server";

// `npm run crm` as a user runs it, against a running Worker whose HUBSPOT_API_URL is the fake HubSpot
// (test/fakes/hubspot.ts) on 127.0.0.1: connect, a dry run printed as a diff, apply, undo, and the mistakes.
const running = clientTestServer();

const crm = (...args: string[]) =>
  runTool("scripts/crm.ts", [...args, "--api-key", running.key], { CONTACT_INFO_BASE_URL: running.server.url });

const api = (path: string, init: RequestInit = {}) =>
  fetch(`${running.server.url}/v2/test${path}`, {
    ...init,
    headers: { "x-api-key": running.key, "content-type": "application/json", ...init.headers },
  });

describe("npm run crm", () => {
  it("connects HubSpot, prints a dry run's diff, applies it, and undoes it", async () => {
    const token = `pat-na1-${crypto.randomUUID()}`;
    const contacts = [
      { id: "201", properties: { firstname: "Ada", lastname: "Lovelace", website: "analytical.example" } },
      { id: "202", properties: { firstname: "No", lastname: "Body", website: "notfound.test" } },
      { id: "203", properties: { firstname: "Grace", lastname: "Hopper", website: "navy.example" } },
    ];
    await fetch(`${running.hubspotUrl}/__fake/portals`, {
      method: "POST",
      body: JSON.stringify({ token, contacts, lists: { "9": ["201", "202", "203"] } }),
    });
    const connected = await crm("connect", "hubspot", "--token", token);
    expect(connected.stdout).toMatch(/^connected hubspot \(account \d+\) to this test key/);

    const submitted = await api("/person/contact-info", {
      method: "POST",
      body: JSON.stringify({ source: { provider: "hubspot", listId: "9" } }),
    });
    const { batchId } = (await submitted.json()) as { batchId: string };
    await until(
      async () => ((await (await api(`/person/contact-info/${batchId}?limit=1`)).json()) as { status: string }).status,
      {
        what: "the list's batch completed",
        done: (status) => status === "completed",
      },
    );

    const dryRun = await crm("sync", batchId, "--provider", "hubspot", "--dry-run");
    expect(dryRun.status).toBe(0);
    const lines = dryRun.stdout.trim().split("\n");
    expect(lines[0]).toBe("#0 record 201: updated");
    expect(lines[1]).toMatch(/^ {4}email: \(empty\) → ada\.lovelace@analytical\.example {2}write \[fill_empty\]$/);
    expect(lines).toContain("#1 record 202: skipped (nothing found)");
    expect(lines.at(-2)).toMatch(
      /^sync (\S+) \(hubspot, dry run\): completed; would update 2, unchanged 0, skipped 1, failed 0$/,
    );
    const syncId = /^apply it: npm run crm -- apply (\S+)$/.exec(lines.at(-1) ?? "")?.[1];
    expect(syncId).toBeTruthy();

    const applied = await crm("apply", syncId ?? "");
    expect(applied.stdout).toMatch(
      /\(hubspot, dry run, applied\): completed; updated 2, unchanged 0, skipped 1, failed 0/,
    );
    const contact = async (id: string) =>
      (await (await fetch(`${running.hubspotUrl}/__fake/contacts/${token}/${id}`)).json()) as {
        properties: Record<string, string>;
      };
    expect(await contact("201")).toMatchObject({ properties: { email: "ada.lovelace@analytical.example" } });

    // A person re-types 203's address after the write: the undo leaves it, and says so.
    await fetch(`${running.hubspotUrl}/__fake/edit`, {
      method: "POST",
      body: JSON.stringify({ token, id: "203", property: "email", value: "grace@typed.example" }),
    });
    const undone = await crm("undo", syncId ?? "");
    expect(undone.status).toBe(0);
    const undoLines = undone.stdout.trim().split("\n");
    expect(undoLines).toEqual([
      "#0 record 201 email: restored ada.lovelace@analytical.example → (empty)",
      expect.stringMatching(/^#0 record 201 phone: restored \+\d+ → \(empty\)$/),
      "#2 record 203 email: left grace@typed.example (changed since apply)",
      expect.stringMatching(
        new RegExp(
          `^sync \\S+ \\(hubspot, undo of ${syncId}\\): completed; restored 1, unchanged 0, skipped 1, failed 0$`,
        ),
      ),
    ]);
    expect((await contact("201")).properties.email).toBe("");
    expect((await contact("203")).properties.email).toBe("grace@typed.example");
    const twice = await crm("undo", syncId ?? "");
    expect(twice.status).toBe(1);
    expect(twice.stderr).toEqual([
      expect.stringMatching(/^error: the API answered 409 crm_sync_not_undoable: This sync was undone already/),
    ]);
  });

  it("says what to do about an expected mistake, in one line", async () => {
    const noProvider = await crm("sync", "3e1cab3a-0527-4fea-987c-d486f470829c");
    expect(noProvider).toMatchObject({
      status: 2,
      stderr: ["error: give --provider hubspot or salesforce (see --help)"],
    });
    const badRule = await crm(
      "sync",
      "3e1cab3a-0527-4fea-987c-d486f470829c",
      "--provider",
      "hubspot",
      "--email",
      "always",
    );
    expect(badRule.stderr).toEqual([expect.stringMatching(/^error: --email must be one of fill_empty, overwrite/)]);
    const unknown = await crm("sync", "3e1cab3a-0527-4fea-987c-d486f470829c", "--provider", "hubspot");
    expect(unknown).toMatchObject({
      status: 1,
      stderr: ["error: No batch with this id exists. Check the id, and --environment (test)."],
    });
  });
});
