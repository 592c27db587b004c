import * as z from "zod";
import { emptySource, emptyUsage } from "../account/usage";
import type { Prices } from "../base/config";
import type { BatchOwner } from "../base/tenant";
import { ownedBy, type StatusRow } from "../batch/batch-row";
import { appendOutbox } from "../batch/record/outbox";
import { type SourceReport, sourceReportSchema } from "../contact-info/batch-views";
import { type Email, emailSchema, type Phone, phoneSchema } from "../contact-info/contact";
import { contactPrice, verificationsOf } from "./credits";
import {
  type ContactKind,
  contactKindsOf,
  type FeedbackRead,
  type FeedbackRequest,
  type NoRefundReason,
  notDeliveredDetail,
  REFUND_WINDOW_DAYS,
} from "./feedback";
import type { LedgerLine } from "./ledger";

// Feedback on a delivered contact (docs/storage.md, items.feedback): the refund rule, pure, and
// its one transaction. A report names a contact by its place in the item's lists, never by value,
// so what the batch keeps of it is no personal data.

const DAY_MS = 86_400_000;

const reportSchema = z.object({
  contact: z.enum(["email", "phone"]),
  position: z.number().int().min(0),
  refunded: z.number().int().min(0),
});
type Report = z.infer<typeof reportSchema>;

/** What the refund rule reads of an item. */
interface ChargedItem {
  credits: number;
  creditsRefunded: number;
  finishedAt: string;
  sources: readonly SourceReport[];
  /** The item's earlier reports. */
  reports: readonly Report[];
}

/**
 * What a report of the contact at `position` refunds: the price the item paid for that kind of contact
 * (an email with its verifications, or a phone: credits.ts), once per kind and item, never more than the
 * item has left, and only within REFUND_WINDOW_DAYS of its delivery. 0 with the reason otherwise.
 */
export function decideRefund(
  item: ChargedItem,
  contact: ContactKind,
  position: number,
  prices: Prices,
  now: number,
): { refunded: number; reason: NoRefundReason | null; refundedBefore: number } {
  const before = item.reports.find((report) => report.contact === contact && report.position === position);
  if (before) return { refunded: 0, reason: "already_reported", refundedBefore: before.refunded };
  const none = (reason: NoRefundReason) => ({ refunded: 0, reason, refundedBefore: 0 });
  if (item.credits === 0) return none("not_charged");
  if (item.reports.some((report) => report.contact === contact && report.refunded > 0)) return none("already_refunded");
  if (now - Date.parse(item.finishedAt) > REFUND_WINDOW_DAYS * DAY_MS) return none("refund_window_closed");
  const price = contactPrice(contact, prices, verificationsOf(item.sources));
  const refunded = Math.max(0, Math.min(price, item.credits - item.creditsRefunded));
  return refunded > 0 ? { refunded, reason: null, refundedBefore: 0 } : none("already_refunded");
}

type ItemRow = {
  status: string;
  emails: string | null;
  phones: string | null;
  credits: number;
  credits_refunded: number;
  finished_at: string | null;
  sources: string | null;
  feedback: string | null;
  erased_at: string | null;
};

// Stored by record() (record-outcomes.ts); read back through their schemas, an unreadable list as empty.
const storedList = <T extends z.ZodType>(schema: T, text: string | null): z.infer<T>[] => {
  if (text === null) return [];
  try {
    return z.array(schema).catch([]).parse(JSON.parse(text));
  } catch {
    return [];
  }
};

/** Where the value is among the item's contacts of the kinds `request.kind` may name, or null. */
function findContact(
  { emails, phones }: { emails: Email[]; phones: Phone[] },
  request: FeedbackRequest,
): { contact: ContactKind; position: number; source: string } | null {
  const value = request.value.trim();
  for (const contact of contactKindsOf(request.kind)) {
    const position =
      contact === "email"
        ? emails.findIndex(({ address }) => address.toLowerCase() === value.toLowerCase())
        : phones.findIndex(({ number }) => number === value);
    const found = contact === "email" ? emails[position] : phones[position];
    if (found) return { contact, position, source: found.source };
  }
  return null;
}

/**
 * Records a report in one transaction: the item's reports and refund, the batch's, and an outbox row
 * (the refund and the report against the source, for the account's usage). A report of a value already
 * reported changes nothing and says what the first one refunded.
 */
export function recordFeedback(
  storage: DurableObjectStorage,
  row: StatusRow | undefined,
  owner: BatchOwner,
  request: FeedbackRequest,
  prices: Prices,
): FeedbackRead {
  if (!row || !ownedBy(row, owner)) return { kind: "none" };
  if (row.deleted_at !== null) return { kind: "deleted", deletedAt: row.deleted_at };
  if (row.expired_at !== null) return { kind: "expired", expiredAt: row.expired_at };
  const { sql } = storage;
  return storage.transactionSync((): FeedbackRead => {
    const item = sql
      .exec<ItemRow>(
        "SELECT status, emails, phones, credits, credits_refunded, finished_at, sources, feedback, erased_at FROM items WHERE idx = ?",
        request.index,
      )
      .toArray()[0];
    const given =
      item && item.status === "completed" && item.erased_at === null && item.finished_at !== null
        ? findContact(
            { emails: storedList(emailSchema, item.emails), phones: storedList(phoneSchema, item.phones) },
            request,
          )
        : null;
    if (!item || item.finished_at === null || !given) {
      return { kind: "not_delivered", detail: notDeliveredDetail(request.index, request.kind) };
    }
    const reports = storedList(reportSchema, item.feedback);
    const decision = decideRefund(
      {
        credits: item.credits,
        creditsRefunded: item.credits_refunded,
        finishedAt: item.finished_at,
        sources: storedList(sourceReportSchema, item.sources),
        reports,
      },
      given.contact,
      given.position,
      prices,
      Date.now(),
    );
    if (decision.reason !== "already_reported") {
      const report: Report = { contact: given.contact, position: given.position, refunded: decision.refunded };
      sql.exec(
        "UPDATE items SET feedback = ?, credits_refunded = credits_refunded + ? WHERE idx = ?",
        JSON.stringify([...reports, report]),
        decision.refunded,
        request.index,
      );
      sql.exec("UPDATE batch SET credits_refunded = credits_refunded + ?", decision.refunded);
      const usage = emptyUsage();
      usage.creditsRefunded = decision.refunded;
      usage.sources[given.source] = { ...emptySource(), reported: 1, creditsRefunded: decision.refunded };
      const at = new Date().toISOString();
      const { contact, source } = given;
      const refund: LedgerLine = {
        at,
        kind: "refund",
        index: request.index,
        contact,
        source,
        credits: decision.refunded,
      };
      appendOutbox(sql, at, usage, { ledger: decision.refunded > 0 ? [refund] : [] });
    }
    const { credits_refunded } = sql.exec<{ credits_refunded: number }>("SELECT credits_refunded FROM batch").one();
    return {
      kind: "recorded",
      record: {
        contact: given.contact,
        source: given.source,
        refundedCredits: decision.refunded,
        reason: decision.reason,
        refundedBefore: decision.refundedBefore,
        creditsRefunded: credits_refunded,
      },
    };
  });
}

/** Arms the alarm to report the outbox row just written, unless it is due sooner (as record-outcomes.ts does). */
export async function reportSoon(storage: DurableObjectStorage): Promise<void> {
  const alarm = await storage.getAlarm();
  if (alarm === null || alarm > Date.now()) await storage.setAlarm(Date.now());
}
