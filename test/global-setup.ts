// Vitest global setup: the workerd tests read GET /openapi.json through the ASSETS
// binding (exports.default.fetch does not pass through the asset router), so the
// document is written into public/ before the Worker starts, as the build does.
import { writeOpenApiDocument } from "../scripts/openapi";

export default function writeDocumentAsset() {
  writeOpenApiDocument("public/openapi.json");
}
