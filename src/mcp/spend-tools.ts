// The tools that can spend credits, and the estimate that tells what they would spend.
// A paid call without maxCredits runs only after its user confirmed the estimate's maximum,
// which then caps the batch exactly as maxCredits does on REST.
import * as z from "zod";
import { DEFAULT_MAX_BATCH_ITEMS, inWords } from "../base/defaults";
import { estimateContactInfo, readSubmission, submitContactInfo } from "../batch/operations";
import { readBatchPage } from "../batch/read-operations";
import { fieldsSchema, maxCreditsSchema, type Submission, webhookUrlSchema } from "../batch/submission";
import { batchSummarySchema } from "../contact-info/batch-views";
import { CONTACT_FIELDS } from "../contact-info/contact";
import { personInputSchema } from "../contact-info/person";
import { estimateSchema } from "../credits/estimate";
import type { Caller } from "../operations/caller";
import { taskOfBatch } from "./batch-task";
import { allowanceExceeded, confirmationDeclined, confirmationRequired, invalidConfirmation } from "./refusal";
import type { ToolContext, ToolDeclaration } from "./tool";
import { waitForBatch } from "./wait";

const batchStatusSchema = () => batchSummarySchema().shape.status;

/** The most items enrich_contact_info takes: a batch that can finish within one call. */
const ENRICH_MAX_ITEMS = 100;

const PEOPLE =
  "People to enrich, each with linkedinUrl, or email, or a name (firstName + lastName, or fullName) plus companyDomain or companyName. An invalid item fails alone (invalid_input).";
// A batch's most items is the deployment's MAX_BATCH_ITEMS (DEFAULT_MAX_BATCH_ITEMS unless configured): the operation says too_many_items.
const batchItems = z
  .array(personInputSchema)
  .min(1)
  .describe(`${PEOPLE} At most MAX_BATCH_ITEMS (${inWords(DEFAULT_MAX_BATCH_ITEMS)} by default).`);
const fields = fieldsSchema.optional().describe(`What to find; default all of ${CONTACT_FIELDS.join(", ")}.`);
const maxCredits = maxCreditsSchema
  .optional()
  .describe(
    "The most the batch may charge, as your user allowed. Without it, or above the key's or connection's allowance (100 credits by default), the user is asked to confirm.",
  );

/**
 * The submission, capped, and the batch id a confirmation chose (MRTR: one batch per confirmation, however
 * often it is presented). It runs unasked only with the agent's own maxCredits within the caller's allowance;
 * otherwise its person is asked to confirm the most it could cost (the estimate's maximum, or the agent's
 * maxCredits over the allowance), which then caps the batch exactly as maxCredits does on REST.
 */
async function confirmedSubmission(
  caller: Caller,
  body: unknown,
  context: ToolContext,
  maxItems?: number,
): Promise<{ submission: Submission; batchId?: string }> {
  const submission = readSubmission(caller, body, maxItems);
  const { allowanceCredits } = context.principal;
  if (submission.maxCredits !== null && submission.maxCredits <= allowanceCredits) return { submission };
  const estimate = await estimateContactInfo(caller, submission);
  // Nothing that can be charged: no one to ask.
  if (estimate.maxCredits === 0) return { submission: { ...submission, maxCredits: 0 } };
  const agents = submission.maxCredits;
  const maxCredits = agents ?? estimate.maxCredits;
  const over =
    agents === null
      ? ""
      : `The agent asks to commit ${agents} credits, more than the ${allowanceCredits} it may without asking. `;
  // Under a monthly budget, the person sees what remains of it before spending (issue 50).
  const remaining =
    estimate.remainingCredits === null ? "" : ` ${estimate.remainingCredits} credits remain of this month's budget.`;
  const confirmed = await context.confirm({
    message: `${over}Spend at most ${maxCredits} credits to enrich ${estimate.validItems} of ${estimate.itemCount} item(s) (${estimate.invalidItems} invalid, ${estimate.duplicateItems} duplicate; at most ${estimate.maxCredits} credits by the estimate) in ${caller.environment}?${remaining}`,
    maxCredits,
  });
  if (confirmed === null)
    throw agents === null ? confirmationRequired(estimate) : allowanceExceeded(agents, allowanceCredits);
  if (confirmed.answer === "invalid") throw invalidConfirmation();
  if (confirmed.answer !== "accept") throw confirmationDeclined(confirmed.answer);
  return { submission: { ...submission, maxCredits }, batchId: confirmed.batchId };
}

export const estimateTool: ToolDeclaration = {
  name: "estimate_contact_info",
  title: "Estimate a contact-info batch",
  description:
    "What enriching these people would be: valid, invalid and duplicate items, those the result cache answers, and the most it could cost in credits. Creates nothing, charges nothing.",
  input: z.object({ items: batchItems, fields }),
  output: estimateSchema(),
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  scope: "read",
  operation: estimateContactInfo,
  run: (caller, args) => estimateContactInfo(caller, readSubmission(caller, args)),
};

export const enrichTool: ToolDeclaration = {
  name: "enrich_contact_info",
  title: "Enrich people (waits for the results)",
  description: `Finds emails and phones for up to ${ENRICH_MAX_ITEMS} people and waits about 25 s for the results, reporting progress. Spends credits: without maxCredits (or with more than the allowance) the user is asked to confirm the most it could cost. If the batch is not done in time, the answer says so; read the rest with get_contact_info_batch.`,
  input: z.object({
    items: z.array(personInputSchema).min(1).max(ENRICH_MAX_ITEMS).describe(PEOPLE),
    fields,
    maxCredits,
  }),
  output: z.object({
    batchId: z.string(),
    status: batchStatusSchema(),
    creditsCharged: z.int().min(0),
    maxCredits: z.int().min(0).nullable(),
    totalItems: z.int().min(0),
    items: z.array(z.record(z.string(), z.unknown())),
    nextCursor: z.string().nullable(),
    message: z.string(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  scope: "spend",
  operation: submitContactInfo,
  run: async (caller, args, context) => {
    const { submission, batchId } = await confirmedSubmission(caller, args, context, ENRICH_MAX_ITEMS);
    const receipt = await submitContactInfo(caller, submission, { batchId, origin: context.origin });
    return waitForBatch(caller, receipt.batchId, context);
  },
};

export const startBatchTool: ToolDeclaration = {
  name: "start_contact_info_batch",
  title: "Start a contact-info batch",
  description: `Queues up to ${inWords(DEFAULT_MAX_BATCH_ITEMS)} people for enrichment and answers at once; read the results with get_contact_info_batch (or receive them at webhookUrl). Spends credits: without maxCredits (or with more than the allowance) the user is asked to confirm the most it could cost.`,
  input: z.object({
    items: batchItems,
    fields,
    maxCredits,
    webhookUrl: webhookUrlSchema
      .optional()
      .describe("Where to POST the signed batch.completed event (needs a webhook secret on the key)."),
  }),
  output: z.object({ batchId: z.string(), itemCount: z.int().min(0), status: batchStatusSchema() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
  scope: "spend",
  operation: submitContactInfo,
  run: async (caller, args, context) => {
    const { submission, batchId } = await confirmedSubmission(caller, args, context);
    const receipt = await submitContactInfo(caller, submission, { batchId, origin: context.origin });
    // A client with the tasks extension follows the batch as a task (tasks/get, tasks/cancel).
    if (context.tasks)
      return taskOfBatch(await readBatchPage(caller, receipt.batchId, { limit: "1" }), receipt.batchId);
    const { status } = await readBatchPage(caller, receipt.batchId, { limit: "1" });
    return { batchId: receipt.batchId, itemCount: receipt.itemCount, status };
  },
};
