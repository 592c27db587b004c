// Feedback on a delivered contact (POST /v2/{environment}/feedback): the request, the answer, and
// what crosses the batch object's RPC boundary. The refund rule itself is credits/refund.ts.
import * as z from "zod";
import { batchIdSchema } from "../base/batch-id";
import { once } from "../base/once";
import { badRequest } from "../http/errors";
import { describeErrors, fieldErrorOf } from "../http/field-errors";

const FEEDBACK_KINDS = ["email_bounced", "phone_wrong", "wrong_person"] as const;
export type FeedbackKind = (typeof FEEDBACK_KINDS)[number];

/** A refund is owed only this long after the item was delivered (its `finished_at`). */
export const REFUND_WINDOW_DAYS = 30;

/** Why a feedback refunded nothing. */
const NO_REFUND_REASONS = ["already_reported", "already_refunded", "not_charged", "refund_window_closed"] as const;
export type NoRefundReason = (typeof NO_REFUND_REASONS)[number];

const REASON_MEANINGS: Record<NoRefundReason, string> = {
  already_reported: "this value of this item was reported before (refundedBefore says what that refunded)",
  already_refunded: "another value of the same kind (email, phone) of this item was refunded already",
  not_charged: "the item was not charged for this kind of contact (a cached result, or a duplicate of an earlier item)",
  refund_window_closed: `the item was delivered more than ${REFUND_WINDOW_DAYS} days ago`,
};

export const feedbackRequestSchema = z
  .strictObject({
    batchId: z
      .string({ error: "must be the batch id from the submit receipt" })
      .max(100, { error: "must be a batch id" })
      .meta(
        OPENAPI_METADATA
          ? {
              description: "The batch id from the submit receipt.",
              example: "3e1cab3a-0527-4fea-987c-d486f470829c",
            }
          : {},
      ),
    index: z
      .number({ error: "must be an item's index, an integer from 0" })
      .int({ error: "must be an integer" })
      .min(0, { error: "must be 0 or more" })
      .meta(OPENAPI_METADATA ? { description: "The item's index in the batch.", example: 0 } : {}),
    kind: z.enum(FEEDBACK_KINDS, { error: `must be one of ${FEEDBACK_KINDS.join(", ")}` }).meta(
      OPENAPI_METADATA
        ? {
            description:
              "email_bounced: an email address the item returned bounced (value: the address); phone_wrong: a phone number it returned is wrong or dead (value: the number); wrong_person: the value (an address or a number the item returned) belongs to someone else.",
          }
        : {},
    ),
    value: z
      .string({ error: "must be the email address or phone number the item returned" })
      .min(1, { error: "must not be empty" })
      .max(512, { error: "must be at most 512 characters" })
      .meta(
        OPENAPI_METADATA
          ? {
              description: "The address or number, as the item returned it (emails compare case-insensitively).",
              example: "ada.lovelace@analytical.example",
            }
          : {},
      ),
  })
  .meta({
    id: "FeedbackRequest",
    example: {
      batchId: "3e1cab3a-0527-4fea-987c-d486f470829c",
      index: 0,
      kind: "email_bounced",
      value: "ada.lovelace@analytical.example",
    },
  });

export type FeedbackRequest = z.infer<typeof feedbackRequestSchema>;

/** The feedback a body asks for; a 400 invalid_request naming each problem. */
export function parseFeedbackRequest(body: unknown): FeedbackRequest {
  const parsed = feedbackRequestSchema.safeParse(body);
  if (parsed.success) return { ...parsed.data, batchId: parsed.data.batchId.toLowerCase() };
  const errors = parsed.error.issues.map((issue) => fieldErrorOf(issue));
  throw badRequest("invalid_request", `The request body is not feedback: ${describeErrors(errors)}.`, errors);
}

/** The not_delivered problem's detail: the item was not given that value (or nothing yet). */
export function notDeliveredDetail(index: number, kind: FeedbackKind): string {
  const lists = kind === "email_bounced" ? "emails" : kind === "phone_wrong" ? "phones" : "emails or phones";
  return `Item ${index} of this batch was not given this value: name one of the item's ${lists}, as the batch status shows it (the item must have completed).`;
}

/** The contact a feedback names: which list of the item it is in. */
export type ContactKind = "email" | "phone";

/** Which kind of contact a feedback may name, by its kind. */
export const contactKindsOf = (kind: FeedbackKind): readonly ContactKind[] =>
  kind === "email_bounced" ? ["email"] : kind === "phone_wrong" ? ["phone"] : ["email", "phone"];

/** The text a contact value is hashed by for the customer's do-not-deliver list (emails case-insensitive). */
export const deliveryKey = (kind: ContactKind, value: string): string =>
  kind === "email" ? `contact:email:${value.trim().toLowerCase()}` : `contact:phone:${value.trim()}`;

/** What the batch object recorded of a feedback: refunded credits, or why none. No personal data. */
interface FeedbackRecord {
  contact: ContactKind;
  refundedCredits: number;
  reason: NoRefundReason | null;
  /** On a repeat: what the first report of this value refunded. */
  refundedBefore: number;
  /** The source that found the value (it counts against it). */
  source: string;
  /** The batch's refunds so far, this one included. */
  creditsRefunded: number;
}

/** What a feedback finds in the batch object: the record, a gone or missing batch, or a value the item was not given. */
export type FeedbackRead =
  | { kind: "recorded"; record: FeedbackRecord }
  | { kind: "not_delivered"; detail: string }
  | { kind: "expired"; expiredAt: string }
  | { kind: "deleted"; deletedAt: string }
  | { kind: "none" };

export const feedbackReceiptSchema = once(() =>
  z
    .object({
      batchId: batchIdSchema,
      index: z.number().int().min(0),
      kind: z.enum(FEEDBACK_KINDS),
      contact: z.enum(["email", "phone"]).meta({ description: "Which of the item's contacts the value is." }),
      source: z.string().meta({ description: "The data source that found the value: it counts against it." }),
      refundedCredits: z.number().int().min(0).meta({
        description:
          "Credits refunded by this report: the price the item paid for that kind of contact (an email with its verifications, or a phone), at most once per kind and item, within the refund window. 0 with a reason otherwise.",
        example: 1,
      }),
      reason: z
        .enum(NO_REFUND_REASONS)
        .nullable()
        .meta({
          description: `Why refundedCredits is 0; null when something was refunded. ${Object.entries(REASON_MEANINGS)
            .map(([reason, meaning]) => `${reason}: ${meaning}`)
            .join("; ")}.`,
        }),
      refundedBefore: z
        .number()
        .int()
        .min(0)
        .meta({ description: "On a repeated report: what the first report of this value refunded; else 0." }),
      creditsRefunded: z
        .number()
        .int()
        .min(0)
        .meta({ description: "The batch's refunds so far, this one included (as the batch status shows)." }),
      doNotDeliver: z.literal(true).meta({
        description:
          "The value is on your do-not-deliver list in this environment: no later item (result cache included) returns it to you.",
      }),
    })
    .meta({ id: "FeedbackReceipt" }),
);

export type FeedbackReceipt = z.infer<ReturnType<typeof feedbackReceiptSchema>>;
