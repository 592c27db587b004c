import * as z from "zod";
import type { Environment } from "../base/environment";
import { CONTACT_FIELDS, type ContactField, type ItemError } from "../contact-info/contact";
import { itemErrors } from "../contact-info/item-errors";
import {
  isCleanText,
  MAX_FIELD_LENGTH,
  PERSON_FIELDS,
  type PersonInput,
  personInputSchema,
} from "../contact-info/person";
import { DEFAULT_WEBHOOK_EVENTS, WEBHOOK_EVENTS, type WebhookEventType } from "../contact-info/webhook-events";
import { webhookUrlProblem } from "../contact-info/webhook-url";
import { badRequest, tooManyItems } from "../http/errors";
import { fieldErrorOf } from "../http/field-errors";
import type { FieldError } from "../http/problem";

const MAX_WEBHOOK_URL_LENGTH = 2048;

export const fieldsSchema = z
  .array(z.enum(CONTACT_FIELDS, { error: `must be one of ${CONTACT_FIELDS.join(", ")}` }))
  .min(1, { error: "must name at least one of email, phone" });

export const maxCreditsSchema = z
  .number({ error: "must be a whole number >= 0" })
  .int({ error: "must be a whole number >= 0" })
  .min(0, { error: "must be a whole number >= 0" });

export const webhookUrlSchema = z
  .string({ error: "must be a string" })
  .max(MAX_WEBHOOK_URL_LENGTH, { error: `must be at most ${MAX_WEBHOOK_URL_LENGTH} characters` });

export const webhookEventsSchema = z
  .array(z.enum(WEBHOOK_EVENTS, { error: `must be one of ${WEBHOOK_EVENTS.join(", ")}` }), {
    error: "must be an array of events",
  })
  .min(1, { error: "must name at least one event" })
  .refine((events) => new Set(events).size === events.length, { error: "must not name an event twice" });

/** How old a cached result may be, in days, unless the submit says otherwise; 0: never from the cache. */
export const DEFAULT_MAX_AGE_DAYS = 90;
export const maxAgeDaysSchema = z
  .int({ error: "must be a whole number of days" })
  .min(0, { error: "must be 0 or more" })
  .max(3650, { error: "must be at most 3650" });

// Items are checked one by one (parseItem), so that a bad item fails alone
// instead of rejecting the batch; the envelope only needs them to be an array.
const submissionSchema = z
  .strictObject({
    items: z
      .array(z.unknown(), { error: "must be an array of items" })
      .min(1, { error: "must hold at least one item" }),
    fields: fieldsSchema.optional(),
    webhookUrl: webhookUrlSchema.optional(),
    maxCredits: maxCreditsSchema.optional(),
    maxAgeDays: maxAgeDaysSchema.optional(),
    webhookEvents: webhookEventsSchema.optional(),
  })
  .refine((envelope) => envelope.webhookEvents === undefined || envelope.webhookUrl !== undefined, {
    error: "requires webhookUrl",
    path: ["webhookEvents"],
  });

export interface SubmittedItem {
  input: PersonInput;
  externalId: string | null;
  /** Set when the item is invalid: it is stored as `failed` and never processed. */
  error: ItemError | null;
}

export interface Submission {
  fields: ContactField[];
  items: SubmittedItem[];
  webhookUrl?: string;
  /** What webhookUrl is sent: DEFAULT_WEBHOOK_EVENTS unless the submit named others. */
  webhookEvents: readonly WebhookEventType[];
  /** The most the batch may charge; null: no cap. */
  maxCredits: number | null;
  /** How old, in days, a cached result served to the batch may be (DEFAULT_MAX_AGE_DAYS unless given). */
  maxAgeDays: number;
}

/**
 * Validates a parsed JSON body. Envelope problems throw; item problems do not:
 * each bad item becomes a failed item that names its field, and the batch goes on.
 */
export function parseSubmission(body: unknown, maxBatchItems: number, environment: Environment): Submission {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw badRequest("invalid_request", "The request body must be a JSON object.");
  }
  const items = (body as { items?: unknown }).items;
  // Checked before schema parsing so an oversized batch is refused without walking it.
  if (Array.isArray(items) && items.length > maxBatchItems) {
    throw tooManyItems(maxBatchItems, items.length);
  }
  const envelope = submissionSchema.safeParse(body);
  if (!envelope.success) {
    throw badRequest(
      "invalid_request",
      "The request body does not match the submission schema.",
      envelope.error.issues.map((issue) => fieldErrorOf(issue)),
    );
  }
  const { webhookUrl } = envelope.data;
  const urlProblem = webhookUrl === undefined ? null : webhookUrlProblem(webhookUrl, environment);
  if (urlProblem) throw invalidWebhookUrl(urlProblem);
  const fields = envelope.data.fields ? [...new Set(envelope.data.fields)] : [...CONTACT_FIELDS];
  const parsed = envelope.data.items.map(parseItem);
  const maxCredits = envelope.data.maxCredits ?? null;
  const webhookEvents = envelope.data.webhookEvents ?? DEFAULT_WEBHOOK_EVENTS;
  const maxAgeDays = envelope.data.maxAgeDays ?? DEFAULT_MAX_AGE_DAYS;
  return webhookUrl === undefined
    ? { fields, items: parsed, maxCredits, maxAgeDays, webhookEvents }
    : { fields, items: parsed, webhookUrl, maxCredits, maxAgeDays, webhookEvents };
}

export function parseItem(raw: unknown): SubmittedItem {
  const parsed = personInputSchema.safeParse(raw);
  if (parsed.success) {
    return { input: parsed.data, externalId: parsed.data.externalId ?? null, error: null };
  }
  // An item has a few fields, so a few issues; fieldErrorOf names only the first unknown keys,
  // so an item of a million keys stores a short message.
  const message = parsed.error.issues.map((issue) => describe(fieldErrorOf(issue))).join("; ");
  const input = echoableFields(raw);
  return { input, externalId: input.externalId ?? null, error: itemErrors.invalidInput(message) };
}

const describe = ({ path, message }: FieldError): string =>
  path === "" || message.startsWith("unknown field") ? message : `${path} ${message}`;

// An invalid item still shows what it was, but only the known fields that are
// clean strings of a sane length, so an item cannot make the batch store arbitrary data.
function echoableFields(raw: unknown): PersonInput {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return {};
  const echo: PersonInput = {};
  for (const field of PERSON_FIELDS) {
    const value = (raw as Record<string, unknown>)[field];
    if (typeof value === "string" && value.length <= MAX_FIELD_LENGTH && isCleanText(value)) echo[field] = value;
  }
  return echo;
}

/** The 400 for a webhookUrl refused, by its text here or by what its name resolves to (webhooks/webhook-destination.ts). */
export const invalidWebhookUrl = (problem: string) =>
  badRequest("invalid_request", `webhookUrl ${problem}.`, [{ path: "webhookUrl", message: problem }]);
