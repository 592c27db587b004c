import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

// Operators read the README's table to know what `wrangler tail` shows: every
// event the code logs must be in it, and nothing it lists may be gone.
const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith(".ts")
        ? [join(dir, entry.name)]
        : [],
  );

const logged = new Set(
  sourceFiles("src").flatMap((file) =>
    [...readFileSync(file, "utf8").matchAll(/\blog(?:Error)?\("(\w+)"/g)].map(([, event]) => event!),
  ),
);
const logsSection = /^## Logs\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readFileSync("docs/operate.md", "utf8"))?.[1] ?? "";
const documented = new Set([...logsSection.matchAll(/^\| `(\w+)` \|/gm)].map(([, event]) => event!));

describe("the README's table of log events", () => {
  it("lists every event the code logs", () => {
    expect(logged.size).toBeGreaterThan(10);
    expect([...logged].filter((event) => !documented.has(event))).toEqual([]);
  });

  it("lists no event the code no longer logs", () => {
    expect([...documented].filter((event) => !logged.has(event))).toEqual([]);
  });
});
