// The console page at /app: console/ bundled by esbuild into public/, which wrangler
// serves as static assets before the Worker runs. Run by wrangler.toml's [build]
// (so `npm run dev`, `npm run build`, deploys and the black-box tests get it) and at
// postinstall. Code split, so a library imported with import() (XLSX) loads only
// when a page needs it; scripts/console-budget.ts checks the page's weight.
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { build } from "esbuild";

// The XLSX libraries the file core imports on demand. A tree installed before they
// were added lacks them: the page is built without (it says it cannot read .xlsx)
// rather than not at all, and says so here; `npm install` brings them.
const ON_DEMAND = ["read-excel-file", "write-excel-file"];
const missing = ON_DEMAND.filter((name) => !existsSync(`node_modules/${name}/package.json`));

// The XLSX libraries' fflate, without the Worker the page's CSP refuses (console/fflate-in-page.ts).
const fflateInPage = {
  name: "fflate-in-page",
  setup(build) {
    build.onResolve({ filter: /^fflate$/ }, ({ importer }) =>
      importer.includes("node_modules") ? { path: resolve("console/fflate-in-page.ts") } : undefined,
    );
  },
};

// The CRMs the page offers and its words for each, from their declarations (src/crm/page-words.ts): bundled
// for Node and imported here, since the page cannot import the declarations (their clients and zod would
// weigh on it), then given to the page as CRM_PAGE_WORDS (console/crms.ts).
const pageWords = await build({
  entryPoints: ["src/crm/page-words.ts"],
  bundle: true,
  platform: "node",
  format: "esm",
  write: false,
  logLevel: "error",
  // As the Worker is built (wrangler.toml [define]): the API's documentation stays out.
  define: { OPENAPI_METADATA: "false" },
});
const { crmPageWords } = await import(
  `data:text/javascript;base64,${Buffer.from(pageWords.outputFiles[0].contents).toString("base64")}`
);

export const CONSOLE_BUILD = {
  entryPoints: ["console/main.ts"],
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "browser",
  target: "es2022",
  minify: true,
  outdir: "public/app",
  entryNames: "[name]",
  chunkNames: "chunks/[name]-[hash]",
  metafile: true,
  legalComments: "none",
  external: missing.map((name) => `${name}/*`),
  plugins: [fflateInPage],
  define: { CRM_PAGE_WORDS: JSON.stringify(crmPageWords()) },
};

// Nothing from another host, no inline script or style: the page holds an API key.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const HEADERS = `/app
  Content-Security-Policy: ${CSP}
  Referrer-Policy: no-referrer
  X-Content-Type-Options: nosniff
/app/*
  X-Content-Type-Options: nosniff
/docs/*
  X-Content-Type-Options: nosniff
`;

if (import.meta.url === `file://${process.argv[1]}`) {
  if (missing.length > 0)
    console.warn(`console page built without ${missing.join(", ")} (not installed; run npm install): no .xlsx`);
  rmSync("public/app", { recursive: true, force: true });
  mkdirSync("public/app", { recursive: true });
  await build(CONSOLE_BUILD);
  // public/app.html answers /app (wrangler's default html_handling drops the extension).
  copyFileSync("console/index.html", "public/app.html");
  copyFileSync("console/console.css", "public/app/console.css");
  // Every page of the site asks for /favicon.ico unless told otherwise.
  copyFileSync("console/favicon.ico", "public/favicon.ico");
  copyFileSync("console/favicon.svg", "public/favicon.svg");
  writeFileSync("public/_headers", HEADERS);
}
