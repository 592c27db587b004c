import * as z from "zod";
import { badRequest } from "../http/errors";
import { parseQuery } from "../http/query";

// The usage report's range: UTC days, both ends included.

const DEFAULT_DAYS = 30;
export const MAX_USAGE_DAYS = 366;
const DAY_MS = 86_400_000;

/** The UTC day of an instant, as YYYY-MM-DD. */
export const utcDay = (time: number | string): string => new Date(time).toISOString().slice(0, 10);

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { error: "must be a date as YYYY-MM-DD" })
  .refine(
    (value) => {
      const time = Date.parse(`${value}T00:00:00.000Z`);
      return Number.isFinite(time) && utcDay(time) === value;
    },
    { error: "is not a calendar date" },
  );

export const usageQuerySchema = z.strictObject({
  from: day.optional().meta(
    OPENAPI_METADATA
      ? {
          description: "First UTC day, YYYY-MM-DD; default 29 days before `to`.",
          example: "2026-11-01",
        }
      : {},
  ),
  to: day.optional().meta(
    OPENAPI_METADATA
      ? {
          description: "Last UTC day, YYYY-MM-DD, included; default today (UTC).",
          example: "2026-11-30",
        }
      : {},
  ),
});

export interface UsageRange {
  from: string;
  to: string;
}

/** The days from `from` to `to`, both included. */
export function daysOf({ from, to }: UsageRange): string[] {
  const days: string[] = [];
  for (let time = Date.parse(from); time <= Date.parse(to); time += DAY_MS) days.push(utcDay(time));
  return days;
}

/** The range a usage request asks for, or a 400 `invalid_query` saying what is wrong. */
export function parseUsageQuery(query: Record<string, string>, now: number): UsageRange {
  const asked = parseQuery(usageQuerySchema, query);
  const to = asked.to ?? utcDay(now);
  const from = asked.from ?? utcDay(Date.parse(to) - (DEFAULT_DAYS - 1) * DAY_MS);
  const days = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
  if (days < 1)
    throw badRequest("invalid_query", "from must not be after to.", [{ path: "from", message: "is after to" }]);
  if (days > MAX_USAGE_DAYS) {
    throw badRequest("invalid_query", `A usage report covers at most ${MAX_USAGE_DAYS} days; this range has ${days}.`, [
      { path: "from", message: `more than ${MAX_USAGE_DAYS} days before to` },
    ]);
  }
  return { from, to };
}

/** The scorecards' span: the last 30 UTC days, today included. */
export const scorecardRange = (now: number): UsageRange => ({
  from: utcDay(now - (DEFAULT_DAYS - 1) * DAY_MS),
  to: utcDay(now),
});
