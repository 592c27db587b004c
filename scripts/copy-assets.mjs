// postinstall: the API reference page's script is served by the Worker itself
// (no CDN), from public/, which wrangler uploads as static assets; and the console
// page is built there too (wrangler's [build] builds it again before each dev or deploy).
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync } from "node:fs";

// The package does not export this file; it ships it in its npm tarball.
const source = "node_modules/@scalar/api-reference/dist/browser/standalone.js";
mkdirSync("public/docs", { recursive: true });
copyFileSync(source, "public/docs/scalar.js");
execFileSync(process.execPath, ["scripts/build-console.mjs"], { stdio: "inherit" });
