import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

// The tools (scripts/) and the benchmarks (bench/) use of src/ only its public entries,
// and nothing of test/: tests and benchmarks import the tools, never the reverse, so
// src/ rooms can move without breaking a tool, and no circle runs through test/.
const PUBLIC_ENTRIES = ["src/tools-api.ts", "src/bench-api.ts", "src/file-core/index.ts"];
const root = resolve(import.meta.dirname, "../..");

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|mts|mjs)$/.test(entry.name))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/** Each relative import of `file`, as a path from the repository's root. */
function relativeImports(file: string): string[] {
  const text = readFileSync(join(root, file), "utf8");
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g)].map(
    (match) => match[1]!,
  );
  return specifiers.map((specifier) => relative(root, resolve(root, dirname(file), specifier)));
}

const isPublicEntry = (path: string) =>
  PUBLIC_ENTRIES.some((entry) => [entry, entry.replace(/\.ts$/, ""), dirname(entry)].includes(path));

describe("what the tools and benchmarks import", () => {
  const files = [...sourceFiles("scripts"), ...sourceFiles("bench")];

  it("finds the tools and their imports", () => {
    expect(files).toContain("scripts/keys.ts");
    expect(files.flatMap(relativeImports)).toContain("src/tools-api");
  });

  it("nothing of test/, and of src/ only its public entries", () => {
    const offending = files.flatMap((file) =>
      relativeImports(file)
        .filter((path) => path.startsWith("test/") || (path.startsWith("src/") && !isPublicEntry(path)))
        .map((path) => `${file} imports ${path}`),
    );
    expect(offending).toEqual([]);
  });
});
