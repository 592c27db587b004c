// The OpenAPI 3.1 document: the request schemas are the ones that validate requests,
// the response schemas the ones the Worker's types come from, one file per resource.
import { OpenAPIRegistry, OpenApiGeneratorV31 } from "@asteasolutions/zod-to-openapi";
import { registerAccount } from "./account-paths";
import { registerContactInfo } from "./contact-info-paths";
import { registerEvents } from "./events-paths";
import { registerMeta } from "./meta-paths";
import { registerPrivacy } from "./privacy-paths";
import { problemSchemaDefinitions } from "./problems";
import { registerRateLimits } from "./rate-limit-paths";
import { API_KEY_SCHEME } from "./security";

function registry(): OpenAPIRegistry {
  const r = new OpenAPIRegistry();
  r.registerComponent("securitySchemes", API_KEY_SCHEME, {
    type: "apiKey",
    in: "header",
    name: "x-api-key",
    description: "Your API key, ck_test_… or ck_live_…, matching the environment in the path. For `npm run dev`: the README's local keys.",
  });
  registerContactInfo(r);
  registerEvents(r);
  registerAccount(r);
  registerRateLimits(r);
  registerPrivacy(r);
  registerMeta(r);
  return r;
}

export function openApiDocument() {
  return new OpenApiGeneratorV31([...registry().definitions, ...problemSchemaDefinitions()]).generateDocument({
    openapi: "3.1.0",
    info: {
      title: "Contact-info batch API",
      version: "2.0.0",
      description:
        "Batch person contact-information enrichment. Submit people, poll the batch, read your rate limits. Every error is RFC 9457 problem+json with a stable `code`; each response lists the codes it may carry.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
      contact: { name: "API support", email: "api-support@example.com" },
    },
    servers: [{ url: "/", description: "This deployment" }],
    tags: [
      { name: "Contact info", description: "Submit batches and read their results." },
      { name: "Rate limits", description: "Per-key limits per endpoint type." },
      { name: "Usage", description: "Items processed per day, for billing and planning." },
      { name: "Privacy", description: "Erase a person everywhere you hold them; the do-not-enrich list." },
      { name: "Webhooks", description: "Events we send to you." },
      { name: "Meta", description: "Health and documentation." },
    ],
  });
}
