// Writing a batch's results into a CRM: POST /v2/{environment}/crm-syncs, GET …/{id}, POST …/{id}/apply,
// POST …/{id}/undo.
import * as z from "zod";
import { notInTheWorker, once } from "../base/once";
import { callerOf } from "../middleware/caller";
import { jsonBody } from "../middleware/json-body";
import { rateLimit } from "../middleware/rate-limit";
import { authProblems, environmentParams, internalError, jsonBodyProblems, keyRequired } from "../openapi/common";
import { header, requestIdHeaders } from "../openapi/headers";
import { problem } from "../openapi/problems";
import { type DeclaredRoute, declareRoute } from "../routes/declare";
import { perCrm } from "./crms";
import { applyCrmSync, readCrmSync, startCrmSync, undoCrmSync } from "./operations";
import {
  DEFAULT_SYNC_PAGE,
  MAX_SYNC_PAGE,
  syncPageSchema,
  syncQuerySchema,
  syncRequestSchema,
  syncSummarySchema,
} from "./schemas";

const syncParams = OPENAPI_METADATA
  ? once(() =>
      environmentParams().extend({
        id: z.string().meta({ description: "The sync's id (POST …/crm-syncs answered it)." }),
      }),
    )
  : notInTheWorker;
const syncQuery = OPENAPI_METADATA
  ? once(() =>
      z.object({
        limit: z
          .int()
          .min(1)
          .max(MAX_SYNC_PAGE)
          .default(DEFAULT_SYNC_PAGE)
          .meta({ description: `Records per page, 1 to ${MAX_SYNC_PAGE}.` }),
        cursor: z.string().optional().meta({ description: "The nextCursor of the previous page, unchanged." }),
      }),
    )
  : notInTheWorker;
// How each CRM tells a person's edit, and names its account: from the declarations (crm-words.ts CrmWords).
const editedBy = () => perCrm(({ words }) => `${words.label}'s ${words.editedBy}`);
const accounts = () => perCrm(({ words }) => `${words.label} ${words.account}`, ", ");
const noSuchSync = OPENAPI_METADATA
  ? once(() => problem(["not_found"], "No such sync for this customer and environment"))
  : notInTheWorker;
const accepted = (description: string) => ({
  description,
  headers: {
    Location: header("The sync's URL.", "/v2/test/crm-syncs/3e1cab3a-0527-4fea-987c-d486f470829c", true),
    ...requestIdHeaders(),
  },
  content: { "application/json": { schema: syncSummarySchema() } },
});

const startSync = declareRoute({
  route: { method: "post", path: "/crm-syncs", middleware: [rateLimit(startCrmSync), jsonBody()] },
  docs: OPENAPI_METADATA && {
    operationId: "startCrmSync",
    tags: ["CRM"],
    summary: "Write a batch's results into a CRM (a dry run first)",
    description: `Matches each item of a completed batch to a CRM record (match: externalId, the record id a CRM list source gave; or email, the item's input email) and decides each property by its rule: fill_empty (the default) writes only into an empty property, overwrite replaces, skip_if_edited_by_user replaces unless a person changed the property last (${editedBy()}). It never writes a value the batch did not find, never blanks a value, never writes a value already there, never for a suppressed or erased person. A dry run (the default) writes nothing: review it, then POST …/apply. Syncs cost no credits.`,
    security: keyRequired,
    request: {
      params: environmentParams(),
      body: { required: true, content: { "application/json": { schema: syncRequestSchema() } } },
    },
    responses: {
      202: accepted("Started: follow it at the Location URL."),
      400: problem(["invalid_request", "malformed_json", "incomplete_body"], "The body does not match the schema"),
      ...authProblems(),
      404: problem(["not_found"], "No such batch for this customer and environment"),
      409: problem(
        ["batch_not_completed", "crm_not_connected"],
        "The batch is still running, or the CRM is not connected",
      ),
      410: problem(["batch_deleted", "batch_expired"], "The batch was deleted, or its retention ended"),
      ...jsonBodyProblems(),
      500: internalError(),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    const { sync, location } = await startCrmSync(caller, c.get("jsonBody"));
    c.header("location", location);
    return c.json(sync, 202);
  },
});

const getSync = declareRoute({
  route: {
    method: "get",
    path: "/crm-syncs/{id}",
    query: syncQuerySchema(),
    middleware: [rateLimit(readCrmSync, { parallel: true })],
  },
  docs: OPENAPI_METADATA && {
    operationId: "getCrmSync",
    tags: ["CRM"],
    summary: "Read a CRM sync: its counts and, per record, each property before and after",
    description:
      "Records come in item order, a page at a time. In a dry run, updated counts the records that would be; after …/apply, those written.",
    security: keyRequired,
    request: { params: syncParams(), query: syncQuery() },
    responses: {
      200: {
        description: "The sync.",
        headers: requestIdHeaders(),
        content: { "application/json": { schema: syncPageSchema() } },
      },
      400: problem(["invalid_query"], "A query parameter is invalid or unknown"),
      ...authProblems(),
      404: noSuchSync(),
      500: internalError(),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    return c.json(await readCrmSync(caller, c.req.param("id"), c.req.query()), 200);
  },
});

const applySync = declareRoute({
  route: { method: "post", path: "/crm-syncs/{id}/apply", middleware: [rateLimit(applyCrmSync)] },
  docs: OPENAPI_METADATA && {
    operationId: "applyCrmSync",
    tags: ["CRM"],
    summary: "Apply a dry run exactly as previewed",
    description: `Writes the previewed writes of a completed dry run, into the CRM account (${accounts()}) it was previewed against: on a connection now pointing to another account it is refused with crm_account_changed and nothing is written. Each record is read again first: one whose previewed property changed since the preview is left whole (changed_since_preview); a value already there is unchanged. Applying again writes nothing new. An apply refused before it wrote anything (the connection gone, the token refused, the account changed) leaves the dry run completed and applicable, its error saying why.`,
    security: keyRequired,
    request: { params: syncParams() },
    responses: {
      202: accepted("Applying: follow it at the Location URL."),
      ...authProblems(),
      404: noSuchSync(),
      409: problem(
        ["crm_sync_not_appliable", "crm_not_connected", "crm_account_changed"],
        "Not a dry run, or not completed; or the connection is gone, or now points to another CRM account (nothing written, the preview stays applicable)",
      ),
      500: internalError(),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    const sync = await applyCrmSync(caller, c.req.param("id"));
    c.header("location", `/v2/${caller.environment}/crm-syncs/${sync.id}`);
    return c.json(sync, 202);
  },
});

const undoSync = declareRoute({
  route: { method: "post", path: "/crm-syncs/{id}/undo", middleware: [rateLimit(undoCrmSync)] },
  docs: OPENAPI_METADATA && {
    operationId: "undoCrmSync",
    tags: ["CRM"],
    summary: "Undo a sync's writes: a new sync restores what was there before",
    description: `Starts a new sync (its id answered, followed at GET …/crm-syncs/{id} like any other; its undoOf names this one) that puts each property this sync wrote back to its value from before the write, a blank included (the blank was there before). In each change of the undo, before is what the property holds now and after what the undo writes (null: blank). A property someone changed after the write (it no longer holds what was written, or a person edited it last: ${editedBy()}) is left alone, with reason changed_since_apply. It writes into the CRM account the sync wrote to (crm_account_changed otherwise, nothing written). A sync is undone once: undoing again, undoing a dry run never applied, a sync still running or an undo itself is refused with crm_sync_not_undoable (an undo that failed may be tried again). An undone dry run cannot be applied again. Undos cost no credits. Its records, like the sync's, hold personal values only until the batch's retention ends or the person is erased.`,
    security: keyRequired,
    request: { params: syncParams() },
    responses: {
      202: accepted("Undoing: follow the new sync at the Location URL."),
      ...authProblems(),
      404: noSuchSync(),
      409: problem(
        ["crm_sync_not_undoable", "crm_not_connected", "crm_account_changed"],
        "Undone already, or nothing written to undo, or still running; or the connection is gone, or now points to another CRM account (nothing written)",
      ),
      500: internalError(),
    },
  },
  handler: async (c) => {
    const caller = callerOf(c);
    const sync = await undoCrmSync(caller, c.req.param("id"));
    c.header("location", `/v2/${caller.environment}/crm-syncs/${sync.id}`);
    return c.json(sync, 202);
  },
});

/** This file's routes, in the order they are served and documented (routes/api-routes.ts lists the files). */
export const crmSyncRoutes: readonly DeclaredRoute[] = [startSync, getSync, applySync, undoSync];
