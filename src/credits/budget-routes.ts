// The month's budget and the ledger: GET/PUT /v2/{environment}/me/budget, GET …/me/ledger (the
// operations: src/credits/budget-operations.ts; the rules and the SQL: src/credits/).
import * as z from "zod";

import { notInTheWorker, once } from "../base/once";
import { callerOf } from "../middleware/caller";
import { jsonBody } from "../middleware/json-body";
import { rateLimit } from "../middleware/rate-limit";
import {
  authProblems,
  environmentParams,
  internalError,
  jsonBodyProblems,
  keyRequired,
  unknownEnvironment,
} from "../openapi/common";
import { header, requestIdHeaders } from "../openapi/headers";
import { problem } from "../openapi/problems";
import { type DeclaredRoute, declareRoute } from "../routes/declare";
import { budgetState, ledgerCsv, ledgerQuerySchema, readLedgerPage, setBudget } from "./budget-operations";
import { budgetRequestSchema, budgetStateSchema, ledgerPageSchema } from "./budget-views";
import { LEDGER_COLUMNS } from "./ledger";

const TAGS = ["Usage"];

const getBudget = declareRoute({
  route: { method: "get", path: "/me/budget", middleware: [rateLimit(budgetState, { parallel: true })] },
  docs: OPENAPI_METADATA && {
    operationId: "getBudget",
    tags: TAGS,
    summary: "This month's budget: set, used, reserved, remaining",
    description:
      "For your customer account in this environment, the UTC calendar month. Every submit reserves its cap (maxCredits, else its estimate's maximum) against what remains, and is refused with 402 budget_exceeded when it does not fit; at completion the reservation shrinks to what the batch charged, and a refund gives credits back to the month.",
    security: keyRequired,
    request: { params: environmentParams() },
    responses: {
      200: {
        description: "The budget.",
        headers: requestIdHeaders(),
        content: { "application/json": { schema: budgetStateSchema() } },
      },
      ...authProblems(),
      404: unknownEnvironment(),
      500: internalError(),
    },
  },
  handler: async (c) => c.json(await budgetState(callerOf(c)), 200),
});

const putBudget = declareRoute({
  route: { method: "put", path: "/me/budget", middleware: [rateLimit(setBudget), jsonBody()] },
  docs: OPENAPI_METADATA && {
    operationId: "setBudget",
    tags: TAGS,
    summary: "Set or remove the monthly budget",
    description:
      "Sets what a UTC calendar month may charge in this environment (monthlyCredits null removes the budget) and the alert percents that send budget.threshold to webhook endpoints subscribed to it. Applies at once, to the current month too; open batches keep what they reserved.",
    security: keyRequired,
    request: {
      params: environmentParams(),
      body: { required: true, content: { "application/json": { schema: budgetRequestSchema() } } },
    },
    responses: {
      200: {
        description: "The budget now.",
        headers: requestIdHeaders(),
        content: { "application/json": { schema: budgetStateSchema() } },
      },
      400: problem(
        ["invalid_request", "malformed_json", "incomplete_body"],
        "monthlyCredits is not a whole number ≥ 0 or null, an alert percent is not 1 to 100 or repeats, or the body is not JSON",
      ),
      ...authProblems(),
      404: unknownEnvironment(),
      ...jsonBodyProblems(),
      500: internalError(),
    },
  },
  handler: async (c) => c.json(await setBudget(callerOf(c), c.get("jsonBody")), 200),
});

const documentedLedgerQuery = OPENAPI_METADATA
  ? once(() =>
      ledgerQuerySchema.extend({
        limit: z
          .int()
          .min(1)
          .max(1000)
          .default(100)
          .meta({ description: "Entries per page, 1 to 1000.", example: 100 }),
      }),
    )
  : notInTheWorker;

const getLedger = declareRoute({
  route: {
    method: "get",
    path: "/me/ledger",
    query: ledgerQuerySchema,
    middleware: [rateLimit(readLedgerPage, { parallel: true })],
  },
  docs: OPENAPI_METADATA && {
    operationId: "getLedger",
    tags: TAGS,
    summary: "Every charge and refund, one entry each",
    description: `One entry per charge (an item's email with its verifications, or its phone) or refund, over the UTC days from..to (as GET …/me/usage: default the last 30 days), in the order they were counted. Over any range its charges sum to usage's credits and its refunds to its creditsRefunded. Entries name the batch, the item's index and the source, never a contact value: erasing a person leaves them. With Accept: text/csv, the same page as CSV (UTF-8 with a BOM, columns ${LEDGER_COLUMNS.join(", ")}, cells a spreadsheet would run neutralised with a leading '), its nextCursor in the Next-Cursor header.`,
    security: keyRequired,
    request: { params: environmentParams(), query: documentedLedgerQuery() },
    responses: {
      200: {
        description: "One page of the ledger.",
        headers: {
          ...requestIdHeaders(),
          "Next-Cursor": header("text/csv only: the nextCursor of this page, absent on the last.", "bGVkZ2VyOjEwMA"),
        },
        content: {
          "application/json": { schema: ledgerPageSchema() },
          "text/csv": { schema: z.string().meta({ description: "A header row, then one row per entry." }) },
        },
      },
      400: problem(
        ["invalid_query"],
        "A date, limit or cursor is invalid, the range is too long, or a parameter is unknown",
      ),
      ...authProblems(),
      404: unknownEnvironment(),
      500: internalError(),
    },
  },
  handler: async (c) => {
    const page = await readLedgerPage(callerOf(c), c.req.query(), Date.now());
    if (!wantsCsv(c.req.header("accept"))) return c.json(page, 200);
    if (page.nextCursor !== null) c.header("next-cursor", page.nextCursor);
    return c.body(ledgerCsv(page.entries), 200, { "content-type": "text/csv; charset=utf-8" });
  },
});

/** Whether the Accept header asks for CSV before JSON. */
const wantsCsv = (accept: string | undefined): boolean => {
  const types = (accept ?? "").split(",").map((part) => (part.split(";")[0] ?? "").trim().toLowerCase());
  const csv = types.indexOf("text/csv");
  const json = types.indexOf("application/json");
  return csv !== -1 && (json === -1 || csv < json);
};

/** This file's routes, in the order they are served and documented (routes/api-routes.ts lists the files). */
export const budgetRoutes: readonly DeclaredRoute[] = [getBudget, putBudget, getLedger];
