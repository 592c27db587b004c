// The month's budget and the ledger: the operations behind GET/PUT …/me/budget and GET …/me/ledger, the
// reservation every submit makes (contact-info.ts), and what the console, the CLI and the MCP tools show
// before spending (budgetState).

import * as z from "zod";
import { accountStub } from "../account/stub";
import { parseUsageQuery, usageQuerySchema } from "../account/usage-query";
import { tenantOf } from "../base/tenant";
import { CSV_BOM, csvLine } from "../file-core/csv-writer";
import { budgetExceeded } from "../http/errors";
import { decodeCursor, encodeCursor, invalidCursor, limitParam } from "../http/paging";
import { parseBody, parseQuery } from "../http/query";
import type { Caller } from "../operations/caller";
import { operation } from "../rate-limit/operation";
import { type BudgetSettings, budgetSettingsSchema } from "./budget";
import type { BudgetState, KeyCap } from "./budget-store";
import { LEDGER_COLUMNS, type LedgerEntry } from "./ledger";

const keyCapOf = ({ apiKey }: Caller): KeyCap => ({
  keyId: apiKey.keyId,
  monthlyCredits: apiKey.monthlyCredits ?? null,
});

/** The month's budget in the caller's environment: set, used, reserved, remaining; and the key's cap when it has one. */
export const budgetState = operation("rate_limits", function budgetState(caller: Caller): Promise<BudgetState> {
  return accountStub(caller.env, tenantOf(caller.apiKey)).budget(keyCapOf(caller));
});

/** Sets (or, with monthlyCredits null, removes) the month's budget; a body that is not one is a 400. */
export const setBudget = operation(
  "rate_limits",
  function setBudget(caller: Caller, body: unknown): Promise<BudgetState> {
    const settings: BudgetSettings = parseBody(budgetSettingsSchema, body);
    return accountStub(caller.env, tenantOf(caller.apiKey)).setBudget(settings, keyCapOf(caller));
  },
);

/** What the caller may still reserve: the lower of the customer's remaining and its key's; null when neither is set. */
export function remainingFor({ remaining, key }: BudgetState): number | null {
  const both = [remaining, key?.remaining ?? null].filter((left): left is number => left !== null);
  return both.length === 0 ? null : Math.min(...both);
}

/**
 * Reserves a batch's cap against what remains of the month's budgets before the batch is created, or
 * throws the 402 `budget_exceeded` (nothing created). Answers whether a budget limits the batch: then the
 * batch is held to its cap (its maxCredits), so it can never charge past what it reserved.
 */
export async function reserveCap(caller: Caller, batchId: string, cap: number): Promise<{ limited: boolean }> {
  const decision = await accountStub(caller.env, tenantOf(caller.apiKey)).reserve(batchId, cap, keyCapOf(caller));
  if (!decision.ok) throw budgetExceeded(decision);
  return { limited: decision.limited };
}

const MAX_LEDGER_PAGE = 1000;
const DEFAULT_LEDGER_PAGE = 100;
const CURSOR_PREFIX = "ledger:";

/** GET …/me/ledger's query: the usage report's range (from, to), and a page of it. */
export const ledgerQuerySchema = usageQuerySchema.extend({
  limit: limitParam(MAX_LEDGER_PAGE).meta(
    OPENAPI_METADATA
      ? { description: `Entries per page, 1 to ${MAX_LEDGER_PAGE}; default ${DEFAULT_LEDGER_PAGE}.` }
      : {},
  ),
  cursor: z
    .string()
    .optional()
    .meta(OPENAPI_METADATA ? { description: "The nextCursor of the previous page, unchanged." } : {}),
});

/** One page of the ledger over the UTC days from..to (the usage report's range and defaults), oldest first. */
export const readLedgerPage = operation(
  "rate_limits",
  async function readLedgerPage(
    caller: Caller,
    query: Record<string, string>,
    now: number,
  ): Promise<{ entries: LedgerEntry[]; nextCursor: string | null }> {
    const { limit, cursor, ...range } = parseQuery(ledgerQuerySchema, query);
    const { from, to } = parseUsageQuery(
      Object.fromEntries(Object.entries(range).filter((entry): entry is [string, string] => entry[1] !== undefined)),
      now,
    );
    let afterSeq: number | null = null;
    if (cursor !== undefined) {
      const text = decodeCursor(cursor, 64);
      const seq = text?.startsWith(CURSOR_PREFIX) ? Number(text.slice(CURSOR_PREFIX.length)) : Number.NaN;
      if (!Number.isSafeInteger(seq) || seq < 0) throw invalidCursor();
      afterSeq = seq;
    }
    const page = await accountStub(caller.env, tenantOf(caller.apiKey)).ledger({
      from,
      to,
      limit: limit ?? DEFAULT_LEDGER_PAGE,
      afterSeq,
    });
    return {
      entries: page.entries,
      nextCursor: page.lastSeq === null ? null : encodeCursor(`${CURSOR_PREFIX}${page.lastSeq}`),
    };
  },
);

/** The entries as CSV a spreadsheet opens safely (file-core's writer): a header row, then one row per entry. */
export const ledgerCsv = (entries: readonly LedgerEntry[]): string =>
  CSV_BOM +
  csvLine(LEDGER_COLUMNS) +
  entries.map((entry) => csvLine(LEDGER_COLUMNS.map((column) => String(entry[column])))).join("");
