import { execFileSync, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startLocalServer } from "../../scripts/local-server";

// The walk-through (docs/api.md, which the README leads to), run as a reader pastes it (bash,
// curl, node) against `wrangler dev` with `npm run dev`'s settings and seeding, twice on the
// same server: every result it shows must be what the server answered, both times. In a shown result, "…" stands for any
// value (ids, times, counters that depend on timing); a string with "…" in it
// matches any string with the same surroundings.
const GUIDE = readFileSync("docs/api.md", "utf8");

interface Step {
  commands: string;
  shown?: string;
}

/** The walk-through's sh blocks, each with the json block right after it, if any. */
function walkThroughSteps(readme: string): Step[] {
  const section = /^## Walk-through\n([\s\S]*?)(?=^## )/m.exec(readme)?.[1];
  if (!section) throw new Error("docs/api.md has no ## Walk-through section");
  const blocks = [...section.matchAll(/^```(\w+)\n([\s\S]*?)^```\n/gm)].map(([, lang, body]) => ({
    lang: lang!,
    body: body!,
  }));
  const steps: Step[] = [];
  for (const block of blocks) {
    if (block.lang === "sh") steps.push({ commands: block.body });
    else if (block.lang === "json" && steps.length > 0 && steps.at(-1)!.shown === undefined)
      steps.at(-1)!.shown = block.body;
  }
  return steps;
}

/** Where `actual` differs from what the README shows, as paths; empty when it matches. */
function mismatches(shown: unknown, actual: unknown, path = "$"): string[] {
  if (shown === "…") return [];
  if (typeof shown === "string" && shown.includes("…")) {
    const pattern = new RegExp(
      `^${shown
        .split("…")
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
        .join("[\\s\\S]*")}$`,
    );
    return typeof actual === "string" && pattern.test(actual)
      ? []
      : [`${path}: README shows ${JSON.stringify(shown)}, the server answered ${JSON.stringify(actual)}`];
  }
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual) || actual.length !== shown.length)
      return [`${path}: README shows ${shown.length} entries, the server answered ${JSON.stringify(actual)}`];
    return shown.flatMap((entry, i) => mismatches(entry, actual[i], `${path}[${i}]`));
  }
  if (shown !== null && typeof shown === "object") {
    if (actual === null || typeof actual !== "object" || Array.isArray(actual))
      return [`${path}: README shows an object, the server answered ${JSON.stringify(actual)}`];
    const keys = new Set([...Object.keys(shown), ...Object.keys(actual)]);
    return [...keys].flatMap((key) =>
      key in shown && key in actual
        ? mismatches(
            (shown as Record<string, unknown>)[key],
            (actual as Record<string, unknown>)[key],
            `${path}.${key}`,
          )
        : [
            `${path}.${key}: ${key in shown ? "shown in the README but not answered" : `answered (${JSON.stringify((actual as Record<string, unknown>)[key])}) but not shown in the README`}`,
          ],
    );
  }
  return Object.is(shown, actual)
    ? []
    : [`${path}: README shows ${JSON.stringify(shown)}, the server answered ${JSON.stringify(actual)}`];
}

describe("the walk-through", () => {
  let server: LocalServer;
  const steps = walkThroughSteps(GUIDE);

  beforeAll(async () => {
    // `npm run dev`'s own --var flags and seeding, into this server's state.
    const devScript = (JSON.parse(readFileSync("package.json", "utf8")) as { scripts: { dev: string } }).scripts.dev;
    const vars = Object.fromEntries(
      [...devScript.matchAll(/--var (\w+):(\S+)/g)].map(([, name, value]) => [name!, value!]),
    );
    server = await startLocalServer({
      vars,
      prepare: async (state) => {
        for (const args of [
          ["scripts/keys.ts", "seed-dev", "--persist-to", state],
          ["scripts/directory.ts", "import", "directory/sample.csv", "--persist-to", state],
        ]) {
          execFileSync("npx", ["tsx", ...args], { stdio: "ignore" });
        }
      },
    });
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it("has steps, and shows a result for each step that prints one", () => {
    expect(steps.length).toBeGreaterThanOrEqual(3);
    expect(steps.filter((step) => step.shown !== undefined).length).toBeGreaterThanOrEqual(3);
  });

  /** Runs every step as pasted; answers each step's output. */
  function followWalkThrough(): string[] {
    const marker = "@@ step done @@";
    const script = steps.map((step) => `${step.commands}\necho '${marker}'`).join("\n");
    // Found as a reader on another port finds it: through CONTACT_INFO_BASE_URL (a hard-coded address would miss it).
    const env = { ...process.env, CONTACT_INFO_BASE_URL: server.url };
    const run = spawnSync("bash", ["-e", "-o", "pipefail", "-c", script], { encoding: "utf8", timeout: 120_000, env });
    expect(run.stderr, "the commands printed errors").toBe("");
    expect(run.status).toBe(0);
    return run.stdout.split(`${marker}\n`);
  }

  const expectShownResults = (outputs: string[], run: string) =>
    steps.forEach((step, i) => {
      if (step.shown === undefined) return;
      const actual = outputs[i]!.trim();
      expect(
        mismatches(JSON.parse(step.shown), JSON.parse(actual)),
        `${run}, step ${i + 1}'s result:\n${actual}`,
      ).toEqual([]);
    });

  it("runs as pasted, and every result it shows is the server's", () => {
    expectShownResults(followWalkThrough(), "first run");
  }, 150_000);

  it("answers the same when followed again on the same server: it undoes what it changes", () => {
    expectShownResults(followWalkThrough(), "second run");
  }, 150_000);

  it("leaves no one suppressed and nothing withheld: its people are found again, email and all", async () => {
    const key = "ck_test_localdevelopmentkey0000000000000";
    const api = `${server.url}/v2/test`;
    const headers = { "x-api-key": key, "content-type": "application/json" };
    const list = (await (await fetch(`${api}/privacy/suppressions`, { headers })).json()) as {
      suppressions: unknown[];
    };
    expect(list.suppressions).toEqual([]);
    const withheld = (await (await fetch(`${api}/privacy/do-not-deliver`, { headers })).json()) as {
      doNotDeliver: unknown[];
    };
    expect(withheld.doNotDeliver).toEqual([]);
    const items = [
      { firstName: "Ada", lastName: "Lovelace", companyDomain: "analytical.example" },
      { email: "alan@turing.example" },
    ];
    const receipt = (await (
      await fetch(`${api}/person/contact-info`, { method: "POST", headers, body: JSON.stringify({ items }) })
    ).json()) as {
      batchId: string;
    };
    const events = await (await fetch(`${api}/person/contact-info/${receipt.batchId}/events`, { headers })).text();
    const completed = JSON.parse(
      events
        .trim()
        .split("\n")
        .at(-1)!
        .replace(/^data: /, ""),
    ) as Record<string, unknown>;
    expect(completed).toMatchObject({ status: "completed", completedItems: 2, failedItems: 0 });
    const page = (await (await fetch(`${api}/person/contact-info/${receipt.batchId}`, { headers })).json()) as {
      items: { emails: { address: string }[] }[];
    };
    expect(page.items[0]?.emails[0]?.address).toBe("ada.lovelace@analytical.example");
  }, 60_000);
});

describe("matching a shown result", () => {
  it("lets … stand for any value, and for part of a string", () => {
    expect(mismatches({ id: "…", n: "…", url: "/v2/test/…" }, { id: "3e1c", n: 4, url: "/v2/test/abc" })).toEqual([]);
  });

  it("reports a different value, a missing field and an extra field", () => {
    expect(mismatches({ a: 1, b: 2 }, { a: 2, c: 3 })).toEqual([
      "$.a: README shows 1, the server answered 2",
      "$.b: shown in the README but not answered",
      "$.c: answered (3) but not shown in the README",
    ]);
  });
});
