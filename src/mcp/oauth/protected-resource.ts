import { PROTECTED_RESOURCE_METADATA_PATH, RESOURCE_PATH, resourceOf } from "./paths";

/**
 * RFC 9728 metadata of the MCP endpoint, at the well-known path and at its path-suffixed form
 * (…/oauth-protected-resource/mcp): the resource is `<origin>/mcp`, its authorization server this
 * origin. Any other suffix names no resource here (null: 404).
 */
export function protectedResourceMetadata(url: URL): Response | null {
  const suffix = url.pathname.slice(PROTECTED_RESOURCE_METADATA_PATH.length);
  if (suffix !== "" && suffix !== RESOURCE_PATH) return null;
  return Response.json(
    {
      resource: resourceOf(url.origin),
      authorization_servers: [url.origin],
      bearer_methods_supported: ["header"],
      resource_name: "Contact-info batch enrichment (MCP)",
    },
    // Browser-based MCP clients (the MCP Inspector) read it from another origin.
    { headers: { "access-control-allow-origin": "*", "cache-control": "max-age=3600" } },
  );
}
