// postinstall: the API reference page's script is served by the Worker itself
// (no CDN), from public/, which wrangler uploads as static assets.
import { copyFileSync, mkdirSync } from "node:fs";

// The package does not export this file; it ships it in its npm tarball.
const source = "node_modules/@scalar/api-reference/dist/browser/standalone.js";
mkdirSync("public/docs", { recursive: true });
copyFileSync(source, "public/docs/scalar.js");
