// What the Worker build gets for `ajv` and `ajv-formats` (wrangler.toml [alias]). The MCP SDK's
// server imports its Ajv validator statically, but this server passes the SDK's Workers validator
// (@cfworker/json-schema) instead: Ajv compiles schemas with `new Function`, which Workers forbid,
// and would add about 40 KiB gzip to every cold start. Constructing it is a bug.
export default class NoAjv {
  constructor() {
    throw new Error("ajv is not bundled in the Worker: pass the SDK's CfWorkerJsonSchemaValidator");
  }
}
