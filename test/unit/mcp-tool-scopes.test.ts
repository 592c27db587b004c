import { describe, expect, it } from "vitest";
import { MCP_SCOPES, type McpScope } from "../../src/connections/connection";
import { missingScope, TOOL_SCOPES } from "../../src/mcp/oauth/tool-scopes";
import { TOOLS } from "../../src/mcp/tools";

const caller = (...scopes: McpScope[]) => ({ scopes: new Set(scopes) });

describe("the scope each MCP tool needs of an OAuth connection", () => {
  it("names a scope for every tool the server lists, and no tool it does not", () => {
    expect(Object.keys(TOOL_SCOPES).sort()).toEqual(TOOLS.map((tool) => tool.name).sort());
  });

  it("lets a read-only connection read and estimate, and names what it lacks to spend or erase", () => {
    const reader = caller("read");
    expect(missingScope(reader, "estimate_contact_info")).toBeNull();
    expect(missingScope(reader, "get_contact_info_batch")).toBeNull();
    expect(missingScope(reader, "enrich_contact_info")).toBe("spend");
    expect(missingScope(reader, "start_contact_info_batch")).toBe("spend");
    expect(missingScope(reader, "erase_person")).toBe("erase");
  });

  it("lets a key (every scope) call every tool, and refuses a tool it does not know to a narrower caller", () => {
    for (const tool of TOOLS) expect(missingScope(caller(...MCP_SCOPES), tool.name)).toBeNull();
    expect(missingScope(caller("read"), "a_tool_added_later")).toBe("spend");
    expect(missingScope(caller("read"), "constructor")).toBe("spend");
  });
});
