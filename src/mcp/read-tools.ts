// The tools that read or change no credits: each runs the operation its REST route runs, counted as it declares.
import * as z from "zod";
import { batchListSchema, usageReportSchema } from "../account/views";
import { listBatchPage, readBatchPage } from "../batch/read-operations";
import { batchPageJson, batchPageSchema, ITEM_STATUSES } from "../contact-info/batch-views";
import { MAX_PAGE_SIZE } from "../contact-info/status-query";
import { rateLimitInfoSchema } from "../openapi/schemas";
import { rateLimitsOf, readUsage } from "../operations/account";
import { erasePersonOperation, suppressPeople } from "../privacy/operations";
import {
  erasureReceiptSchema,
  erasureRequestSchema,
  MAX_SUPPRESSIONS_PER_REQUEST,
  suppressionRequestSchema,
  suppressionsAddedSchema,
} from "../privacy/schemas";
import { queryOf, type ToolDeclaration } from "./tool";

const readOnly = { readOnlyHint: true, idempotentHint: true, openWorldHint: false };

export const getBatchTool: ToolDeclaration = {
  name: "get_contact_info_batch",
  title: "Read a contact-info batch",
  description:
    "One page of a batch: its counts, credits charged and items in submission order (found emails and phones, or each item's error). Pass nextCursor as cursor for the next page.",
  input: z.object({
    batchId: z.string().describe("The batch's id, as returned when it was started."),
    status: z.enum(ITEM_STATUSES).optional().describe("Only items in this status."),
    cursor: z.string().optional().describe("The nextCursor of the previous page, unchanged."),
    limit: z.int().min(1).max(MAX_PAGE_SIZE).optional().describe(`Items per page, 1 to ${MAX_PAGE_SIZE}.`),
  }),
  output: batchPageSchema(),
  annotations: readOnly,
  scope: "read",
  operation: readBatchPage,
  run: async (caller, args) =>
    JSON.parse(
      batchPageJson(
        await readBatchPage(caller, String(args.batchId ?? ""), queryOf(args, ["status", "cursor", "limit"])),
      ),
    ),
};

export const listBatchesTool: ToolDeclaration = {
  name: "list_contact_info_batches",
  title: "List contact-info batches",
  description: "The batches of your account in this environment, newest first, a page at a time.",
  input: z.object({
    cursor: z.string().optional().describe("The nextCursor of the previous page, unchanged."),
    limit: z.int().min(1).max(100).optional().describe("Batches per page, 1 to 100."),
  }),
  output: batchListSchema(),
  annotations: readOnly,
  scope: "read",
  operation: listBatchPage,
  run: (caller, args) => listBatchPage(caller, queryOf(args, ["cursor", "limit"])),
};

export const getUsageTool: ToolDeclaration = {
  name: "get_usage",
  title: "Read usage",
  description: "Items finished and credits charged per UTC day (by default the last 30 days).",
  input: z.object({
    from: z.string().optional().describe("First day, YYYY-MM-DD (UTC)."),
    to: z.string().optional().describe("Last day, YYYY-MM-DD (UTC)."),
  }),
  output: usageReportSchema(),
  annotations: readOnly,
  scope: "read",
  operation: readUsage,
  run: (caller, args) => readUsage(caller, queryOf(args, ["from", "to"]), Date.now()),
};

export const getRateLimitsTool: ToolDeclaration = {
  name: "get_rate_limits",
  title: "Read rate limits",
  description:
    "Each endpoint type's limit, window and current use. Tool calls count as their REST operation's endpoint type.",
  input: z.object({}),
  output: z.object({ limits: z.array(rateLimitInfoSchema()) }),
  annotations: { readOnlyHint: true, idempotentHint: false, openWorldHint: false },
  scope: "read",
  operation: rateLimitsOf,
  withUsage: true,
  run: async (caller, _args, context, admitted) => ({ limits: rateLimitsOf(caller, admitted, context.counted) }),
};

export const erasePersonTool: ToolDeclaration = {
  name: "erase_person",
  title: "Erase a person",
  description:
    "Erases one person (one identifier: email, linkedinUrl, or a name with companyDomain or companyName) from every retained batch and cache of your account in this environment, and by default adds them to the do-not-enrich list. Answers a receipt with counts only.",
  input: erasureRequestSchema,
  output: erasureReceiptSchema(),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  scope: "erase",
  operation: erasePersonOperation,
  run: (caller, args) => erasePersonOperation(caller, args),
};

export const suppressPersonTool: ToolDeclaration = {
  name: "suppress_person",
  title: "Add people to the do-not-enrich list",
  description: `Adds up to ${MAX_SUPPRESSIONS_PER_REQUEST} people (items, each as an enrich item) to the do-not-enrich list: their items end failed with suppressed, unasked and uncharged. Only hashed keys are stored.`,
  input: suppressionRequestSchema,
  output: suppressionsAddedSchema(),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: "erase",
  operation: suppressPeople,
  run: (caller, args) => suppressPeople(caller, args),
};
