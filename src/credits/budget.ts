import * as z from "zod";

// A customer's monthly budget (and an operator's cap on one key): the decisions, pure. The account
// object holds the state (budget-store.ts) and asks these in the transaction that changes it.

export const DEFAULT_ALERT_PERCENTS: readonly number[] = [50, 80, 100];
const MAX_ALERT_PERCENTS = 10;

export const budgetSettingsSchema = z.strictObject({
  monthlyCredits: z
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .nullable()
    .meta(
      OPENAPI_METADATA
        ? {
            description: "Credits the month may charge in this environment; null for no budget.",
            example: 5000,
          }
        : {},
    ),
  alertPercents: z
    .array(z.number().int().min(1).max(100))
    .max(MAX_ALERT_PERCENTS)
    .refine((percents) => new Set(percents).size === percents.length, { error: "must not repeat a percent" })
    .optional()
    .meta(
      OPENAPI_METADATA
        ? {
            description: `Percents of monthlyCredits whose crossing sends one budget.threshold event each month (at most ${MAX_ALERT_PERCENTS}, 1 to 100); default [50, 80, 100].`,
            example: [50, 80, 100],
          }
        : {},
    ),
});
export type BudgetSettings = z.infer<typeof budgetSettingsSchema>;

/** The UTC calendar month of an instant, as YYYY-MM. */
export const utcMonth = (time: number | string): string => new Date(time).toISOString().slice(0, 7);

/** The month's first and last UTC days (YYYY-MM-DD), and when the next one starts. */
export function monthSpan(now: number): { from: string; to: string; resetsAt: string } {
  const date = new Date(now);
  const start = Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const next = Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1);
  const iso = (time: number) => new Date(time).toISOString();
  return { from: iso(start).slice(0, 10), to: iso(next - 1).slice(0, 10), resetsAt: iso(next) };
}

/**
 * What a reservation still holds: until its batch completes (or is deleted: it charges nothing after), its
 * cap less what the account has been told it charged; then only what it charged that the account has not
 * been told yet (the report that carried the completion may not carry every charge: reports are paged).
 */
export const outstanding = (r: { cap: number; applied: number; completed: boolean; charged: number }): number =>
  Math.max(0, (r.completed ? r.charged : r.cap) - r.applied);

/** A limit's state: what it allows, what was charged of it this month, what open batches hold. */
export interface Limit {
  monthlyCredits: number | null;
  used: number;
  reserved: number;
}

export const remainingOf = ({ monthlyCredits, used, reserved }: Limit): number | null =>
  monthlyCredits === null ? null : Math.max(0, monthlyCredits - used - reserved);

export type ReservationDecision =
  | { ok: true; limited: boolean }
  | { ok: false; scope: "customer" | "key"; monthlyCredits: number; remaining: number; cap: number };

/**
 * Whether a batch whose cap is `cap` may reserve it: it must fit what remains of the customer's budget
 * and of the key's, the customer's named first when both refuse.
 */
export function decideReservation(cap: number, customer: Limit, key: Limit): ReservationDecision {
  for (const [scope, limit] of [
    ["customer", customer],
    ["key", key],
  ] as const) {
    const remaining = remainingOf(limit);
    if (limit.monthlyCredits !== null && remaining !== null && cap > remaining)
      return { ok: false, scope, monthlyCredits: limit.monthlyCredits, remaining, cap };
  }
  return { ok: true, limited: customer.monthlyCredits !== null || key.monthlyCredits !== null };
}

/**
 * The alert percents the month has reached once charging took it from `before` to `after` used credits,
 * not already sent this month (`sent`). A budget of 0 is crossed by nothing: it allows nothing.
 */
export function crossedPercents(
  percents: readonly number[],
  monthlyCredits: number | null,
  before: number,
  after: number,
  sent: readonly number[],
): number[] {
  if (monthlyCredits === null || monthlyCredits === 0 || after <= before) return [];
  return (
    percents
      .filter((percent) => !sent.includes(percent))
      // Those reached before but not sent (the budget was set or lowered mid-month) go with this charge.
      .filter((percent) => after * 100 >= monthlyCredits * percent)
      .sort((a, b) => a - b)
  );
}
