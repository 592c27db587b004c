// CRM's schemas: a sync as the API shows it and the request that starts one, the sync's page query, a
// connection's body and a submit's CRM list source: zod schemas, the one source of the types, the
// validation and the OpenAPI document. What only the document reads, and every description, is written
// under OPENAPI_METADATA (src/base/once.ts), so the Worker's bundle carries neither.
import * as z from "zod";
import { batchIdSchema } from "../base/batch-id";
import { notInTheWorker, once } from "../base/once";
import { badRequest } from "../http/errors";
import { fieldErrorOf } from "../http/field-errors";
import { limitParam } from "../http/paging";
import { SYNC_FIELDS } from "./crm";
import { CRM_PROVIDERS, perCrm } from "./crms";

export const SYNC_RULES = ["fill_empty", "overwrite", "skip_if_edited_by_user"] as const;
export type SyncRule = (typeof SYNC_RULES)[number];
export const SYNC_MATCHES = ["externalId", "email"] as const;
export const SYNC_STATUSES = ["running", "completed", "failed"] as const;
export const RECORD_OUTCOMES = ["updated", "unchanged", "skipped", "failed"] as const;
export type RecordOutcome = (typeof RECORD_OUTCOMES)[number];
/** Why a property is not written. */
const CHANGE_REASONS = [
  "same_value",
  "not_empty",
  "edited_by_user",
  "changed_since_preview",
  "changed_since_apply",
] as const;
/** Why a whole record is skipped. */
export const RECORD_REASONS = [
  "nothing_found",
  "no_match_key",
  "record_not_found",
  "duplicate_record",
  "suppressed",
  "erased",
] as const;
export type RecordReason = (typeof RECORD_REASONS)[number];

/** Records per page of GET …/crm-syncs/{id}. */
export const MAX_SYNC_PAGE = 1000;
export const DEFAULT_SYNC_PAGE = 100;

export const syncQuerySchema = once(() =>
  z.strictObject({ limit: limitParam(MAX_SYNC_PAGE), cursor: z.string().optional() }),
);

export const connectRequestSchema = once(() =>
  z.strictObject({
    token: z.string({ error: "must be a string" }).min(1, { error: "must not be empty" }).max(4096),
    instanceUrl: z.string({ error: "must be a string" }).max(2048).optional(),
  }),
);

export const crmSourceSchema = once(() =>
  z.strictObject({
    provider: z.enum(CRM_PROVIDERS, { error: `must be one of ${CRM_PROVIDERS.join(", ")}` }),
    listId: z.string().min(1, { error: "must not be empty" }).max(200),
  }),
);

export const listsQuerySchema = once(() => z.strictObject({ cursor: z.string().max(2048).optional() }));

/** A body that does not match its schema: invalid_request, each issue a field error (under `prefix`). */
export function invalid(detail: string, issues: z.core.$ZodIssue[], prefix = ""): never {
  const errors = issues.map((issue) => fieldErrorOf(issue)).map((error) => ({ ...error, path: prefix + error.path }));
  throw badRequest("invalid_request", detail, errors);
}

const ruleSchema = once(() => z.enum(SYNC_RULES, { error: `must be one of ${SYNC_RULES.join(", ")}` }));

export const syncRequestSchema = once(() =>
  z.strictObject({
    batchId: batchIdSchema,
    provider: z.enum(CRM_PROVIDERS, { error: `must be one of ${CRM_PROVIDERS.join(", ")}` }),
    match: z
      .enum(SYNC_MATCHES, { error: `must be one of ${SYNC_MATCHES.join(", ")}` })
      .default("externalId")
      .meta(
        OPENAPI_METADATA
          ? {
              description:
                "How an item finds its record: externalId (the record id; a CRM list source sets it) or email (the item's input email).",
            }
          : {},
      ),
    fields: z
      .strictObject({ email: ruleSchema().optional(), phone: ruleSchema().optional() })
      .refine((fields) => Object.keys(fields).length > 0, { error: "must name at least one of email, phone" })
      .default({ email: "fill_empty", phone: "fill_empty" })
      .meta(
        OPENAPI_METADATA
          ? {
              description:
                "The fields to write, each with its rule: fill_empty (only into an empty property), overwrite, skip_if_edited_by_user (unless a person changed it last). Default: both, fill_empty.",
            }
          : {},
      ),
    dryRun: z
      .boolean({ error: "must be true or false" })
      .default(true)
      .meta(OPENAPI_METADATA ? { description: "true (the default): preview only; false: write at once." } : {}),
  }),
);
export type SyncRequest = z.output<ReturnType<typeof syncRequestSchema>>;

export const changeSchema = once(() =>
  z.object({
    field: z.enum(SYNC_FIELDS),
    property: z.string(),
    before: z.string().nullable(),
    // Null only in an undo: the property was empty before the write it undoes.
    after: z.string().nullable(),
    rule: ruleSchema(),
    action: z.enum(["write", "skip"]),
    reason: z.enum(CHANGE_REASONS).optional(),
  }),
);
export type Change = z.infer<ReturnType<typeof changeSchema>>;
export type RecordError = { code: string; message: string };

export interface SyncCounts {
  updated: number;
  unchanged: number;
  skipped: number;
  failed: number;
}

export interface SyncSummary {
  id: string;
  status: (typeof SYNC_STATUSES)[number];
  provider: (typeof CRM_PROVIDERS)[number];
  batchId: string;
  match: (typeof SYNC_MATCHES)[number];
  fields: Partial<Record<(typeof SYNC_FIELDS)[number], SyncRule>>;
  dryRun: boolean;
  createdAt: string;
  completedAt: string | null;
  appliedAt: string | null;
  undoOf: string | null;
  undoneBy: string | null;
  counts: SyncCounts;
  error: RecordError | null;
}

export interface SyncRecord {
  index: number;
  recordId: string | null;
  outcome: RecordOutcome | null;
  reason?: RecordReason;
  changes: Change[];
  error?: RecordError;
  erasedAt?: string;
}

export type SyncPage = SyncSummary & { records: SyncRecord[]; nextCursor: string | null };

// The document's statement of the same shapes (the conformance test holds the answers to it).
const problemSchema = () => z.object({ code: z.string(), message: z.string() });

const documentedChange = () =>
  changeSchema().extend({
    property: z.string().meta({
      description: `The CRM property (${perCrm(({ words, properties }) => `${words.label} ${Object.values(properties).join(", ")}`)}).`,
    }),
    before: z.string().nullable().meta({ description: "Its value when read (null: empty)." }),
    after: z.string().nullable().meta({
      description:
        "What the batch found for it; in an undo, the value from before the write it undoes (null: empty, so the undo blanks it).",
    }),
    reason: z.enum(CHANGE_REASONS).optional().meta({
      description:
        "Why a skip: same_value (the CRM holds it already), not_empty (fill_empty), edited_by_user (skip_if_edited_by_user: a person changed it last), changed_since_preview (apply: the CRM changed since the dry run), changed_since_apply (undo: someone changed the property after the write, or a person edited it last; left alone).",
    }),
  });

export const syncSummarySchema = OPENAPI_METADATA
  ? once(() =>
      z
        .object({
          id: z.string(),
          status: z.enum(SYNC_STATUSES),
          provider: z.enum(CRM_PROVIDERS),
          batchId: batchIdSchema,
          match: z.enum(SYNC_MATCHES),
          fields: z.object({ email: ruleSchema().optional(), phone: ruleSchema().optional() }),
          dryRun: z.boolean(),
          createdAt: z.iso.datetime(),
          completedAt: z.iso.datetime().nullable(),
          appliedAt: z.iso
            .datetime()
            .nullable()
            .meta({ description: "When POST …/apply first wrote into the CRM for this dry run." }),
          undoOf: z
            .string()
            .nullable()
            .meta({ description: "On an undo (POST …/undo): the sync whose writes it restores." }),
          undoneBy: z.string().nullable().meta({ description: "The undo started for this sync, if any." }),
          counts: z.object({
            updated: z.int().min(0).meta({ description: "Records written (in a dry run not applied: that would be)." }),
            unchanged: z.int().min(0).meta({ description: "Records that already held what was found." }),
            skipped: z.int().min(0),
            failed: z.int().min(0).meta({ description: "Records the CRM refused (see each record's error)." }),
          }),
          error: problemSchema().nullable().meta({
            description:
              "Why the sync failed: crm_unauthorized (reconnect the CRM: the token expired or was revoked; the counts say what was written before), crm_unavailable, crm_bad_answer (the CRM kept answering what its API does not), crm_refused, crm_not_connected, crm_account_changed (the connection points to another CRM account than the preview's), batch_deleted, batch_expired. On a completed dry run: why the last apply was refused before it wrote anything (crm_not_connected, crm_unauthorized, crm_account_changed); it can be applied again.",
          }),
        })
        .meta({ id: "CrmSyncSummary" }),
    )
  : notInTheWorker;

export const syncPageSchema = OPENAPI_METADATA
  ? once(() =>
      syncSummarySchema()
        .extend({
          records: z.array(
            z.object({
              index: z.int().min(0).meta({ description: "The batch item's index." }),
              recordId: z
                .string()
                .nullable()
                .meta({ description: "The CRM record (null when none was found by email)." }),
              outcome: z.enum(RECORD_OUTCOMES).nullable().meta({
                description:
                  "updated (in a dry run: would be), unchanged (a value found is already there, nothing to write), skipped, failed (see error); null while pending.",
              }),
              reason: z.enum(RECORD_REASONS).optional().meta({ description: "Why the whole record is skipped." }),
              changes: z.array(documentedChange()),
              error: problemSchema()
                .optional()
                .meta({ description: "The CRM's refusal of this record's update (its code and words)." }),
              erasedAt: z.iso.datetime().optional().meta({
                description:
                  "When its person was erased: the values found, the CRM's values before, the email it was matched by and the CRM's words are gone (changes empty); an outcome already written stays, any other is skipped (erased).",
              }),
            }),
          ),
          nextCursor: z.string().nullable(),
        })
        .meta({ id: "CrmSync" }),
    )
  : notInTheWorker;
