/** How this MCP server names itself, on both revisions (server/discover, initialize, each result's _meta). */
export const SERVER_INFO = { name: "contact-info-batch", version: "2.0.0" };
