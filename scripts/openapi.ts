// Writes the OpenAPI document (the one GET /openapi.json serves) to a file, for Spectral.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { openApiDocument } from "../src/openapi/document";

const out = process.argv[2] ?? "artifacts/openapi.json";
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
console.log(`wrote ${out}`);
