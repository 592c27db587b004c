// Writes the OpenAPI document to a file: public/openapi.json, which Workers Static
// Assets serves as GET /openapi.json (wrangler.toml's [build] runs this before each
// dev, build and deploy; test/global-setup.ts before the workerd tests), or a path
// for Spectral and the client's type generator.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { openApiDocument } from "../src/tools-api";

/**
 * Writes the document to `out` unless it already holds it. An unchanged file is left
 * alone so running dev servers watching public/ do not reload, and a changed one is
 * renamed into place so a server reading it never sees half a document.
 */
export function writeOpenApiDocument(out: string): boolean {
  const text = `${JSON.stringify(openApiDocument(), null, 2)}\n`;
  if (existsSync(out) && readFileSync(out, "utf8") === text) return false;
  mkdirSync(dirname(out), { recursive: true });
  const partial = `${out}.${process.pid}.partial`;
  writeFileSync(partial, text);
  renameSync(partial, out);
  return true;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = process.argv[2] ?? "artifacts/openapi.json";
  console.log(writeOpenApiDocument(out) ? `wrote ${out}` : `${out} is up to date`);
}
