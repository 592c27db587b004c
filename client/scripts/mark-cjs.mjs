// dist/cjs holds the CommonJS build (tsconfig.cjs.json): this package is "type": "module",
// so Node would read its .js files as ES modules without a package.json of its own there.
import { writeFileSync } from "node:fs";

writeFileSync(new URL("../dist/cjs/package.json", import.meta.url), `${JSON.stringify({ type: "commonjs" })}\n`);
