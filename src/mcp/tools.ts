import * as z from "zod";
import { once } from "../base/once";
import { reportFeedbackTool } from "./feedback-tool";
import {
  erasePersonTool,
  getBatchTool,
  getRateLimitsTool,
  getUsageTool,
  listBatchesTool,
  suppressPersonTool,
} from "./read-tools";
import { enrichTool, estimateTool, startBatchTool } from "./spend-tools";
import type { ToolDeclaration } from "./tool";

/** Every tool the MCP server lists, in the order it lists them. */
export const TOOLS: readonly ToolDeclaration[] = [
  estimateTool,
  enrichTool,
  startBatchTool,
  getBatchTool,
  listBatchesTool,
  getUsageTool,
  getRateLimitsTool,
  erasePersonTool,
  suppressPersonTool,
  reportFeedbackTool,
];

// JSON Schema as the SDK client validates it (draft-07 by default); made from the same zod schemas
// the operations parse with and the OpenAPI document states.
type JsonSchema = { [key: string]: unknown };

// A schema with a meta id comes out as a $ref to its definition; MCP wants the object itself on top.
function jsonSchema(schema: z.ZodType, io: "input" | "output") {
  const made = z.toJSONSchema(schema, { target: "draft-7", io, unrepresentable: "any" }) as JsonSchema;
  const {
    $schema: _,
    $ref,
    definitions,
    ...rest
  } = made as { $schema?: string; $ref?: string; definitions?: Record<string, JsonSchema> };
  const name = $ref?.replace("#/definitions/", "");
  const { [name ?? ""]: top, ...others } = definitions ?? {};
  const shared = Object.keys(others).length > 0 ? { definitions: others } : {};
  return { ...(top ?? rest), ...shared } as { type: "object"; [key: string]: unknown };
}

/** The tools/list answer: made on first use, the same after. */
export const listedTools = once(() =>
  TOOLS.map((tool) => ({
    name: tool.name,
    title: tool.title,
    description: tool.description,
    inputSchema: jsonSchema(tool.input, "input"),
    outputSchema: jsonSchema(tool.output, "output"),
    annotations: { title: tool.title, ...tool.annotations },
  })),
);
