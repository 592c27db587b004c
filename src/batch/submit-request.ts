// What the two routes that take a submission (submit and estimate) share: the body as the
// document states it, and the problems reading it may answer.

import * as z from "zod";
import { notInTheWorker, once } from "../base/once";
import { CONTACT_FIELDS } from "../contact-info/contact";
import { personInputSchema } from "../contact-info/person";
import { DEFAULT_WEBHOOK_EVENTS, MAX_ITEMS_PER_DELIVERY } from "../contact-info/webhook-events";
import { CRM_PROVIDERS, perCrm } from "../crm/crms";
import { crmSourceSchema } from "../crm/schemas";
import { jsonBodyProblems } from "../openapi/common";
import { submitRequestExample } from "../openapi/examples";
import { header } from "../openapi/headers";
import { problem } from "../openapi/problems";
import {
  DEFAULT_MAX_AGE_DAYS,
  fieldsSchema,
  maxAgeDaysSchema,
  maxCreditsSchema,
  webhookEventsSchema,
  webhookUrlSchema,
} from "./submission";

// parseSubmission checks the envelope and each item apart (a bad item fails alone);
// the document states the body whole, from the same field schemas.
const documentedSubmission = OPENAPI_METADATA
  ? once(() =>
      z
        .strictObject({
          items: z.array(personInputSchema).min(1).optional().meta({
            description:
              "Each item is identifiable with linkedinUrl, or email, or a name (firstName + lastName, or fullName) plus companyDomain or companyName. An invalid item does not reject the batch: it is accepted as a failed item with error code invalid_input. At most MAX_BATCH_ITEMS items (see too_many_items). Required unless source is given.",
          }),
          source: crmSourceSchema()
            .optional()
            .meta({
              description: `In place of items: a CRM list to enrich, read through your connection (PUT …/integrations/{provider}): ${perCrm(({ words }) => `for ${words.label}, ${words.listId}`)}. Each member becomes an item (first and last name, email, company, website, LinkedIn URL as the CRM holds them) whose externalId is the record id, so POST …/crm-syncs can write the results back.`,
              example: { provider: CRM_PROVIDERS[0], listId: "123" },
            }),
          fields: fieldsSchema
            .optional()
            .meta({ description: `What to find; default all of ${CONTACT_FIELDS.join(", ")}.` }),
          webhookUrl: webhookUrlSchema.optional().meta({
            description:
              "Where to POST the signed events webhookEvents names (by default batch.completed). https, port 443 or from 1024 up, no credentials; IP literals must be public unicast addresses and names such as localhost, *.local or *.internal are refused; in live, so are the special-use and private suffixes .test, .example, .invalid, .onion, .home.arpa, .home, .corp, .lan, .svc and .intranet. In live, a name is also resolved (A and AAAA, over DNS-over-HTTPS) when the batch is created: a name that resolves to a loopback, private, link-local, shared or other special-purpose address (localtest.me, 127.0.0.1.nip.io) is refused; if the resolver cannot answer, the URL is accepted. Each delivery checks again first: a name re-pointed inside since is not sent to, and the delivery ends failed without retries. test also allows http(s) to 127.0.0.1, localhost and [::1] for local development, and checks the text only. Redirects are never followed (see the README, Webhooks).",
            example: "https://example.com/hooks/contact-info",
          }),
          webhookEvents: webhookEventsSchema.optional().meta({
            description: `The events to send to webhookUrl (required with this field), each at most once; default ${JSON.stringify(DEFAULT_WEBHOOK_EVENTS)}. item.completed: a delivery for the items each record finishes, at most ${MAX_ITEMS_PER_DELIVERY} items to a delivery, every item in exactly one (see the webhooks).`,
            example: ["batch.completed", "item.completed"],
            uniqueItems: true,
          }),
          maxCredits: maxCreditsSchema.optional().meta({
            description:
              "The most the batch may charge, in credits; default no cap. Items are charged as they finish; one whose result would take the batch past this ends failed with budget_exhausted, is not charged, and may be resubmitted. POST …/estimate tells the most a batch could cost.",
            example: 100,
          }),
          maxAgeDays: maxAgeDaysSchema.optional().meta({
            description: `How fresh a result from your result cache (live) must be, in days: a cached result whose contacts were all verified (or, unverifiable, found) within this many days is served as it is; one with an older email (and no older phone) has its emails verified again, charged the verification price only; otherwise the person is looked up again. 0: never from the cache. Default ${DEFAULT_MAX_AGE_DAYS}.`,
            example: 30,
          }),
        })
        // The rules the envelope's parse adds to the fields' own (batch/submission.ts,
        // crm/connection-operations.ts's itemsFromSource), stated in JSON Schema: items or source, one of them;
        // webhookEvents only with webhookUrl.
        .meta({
          id: "SubmitRequest",
          example: submitRequestExample,
          oneOf: [{ required: ["items"] }, { required: ["source"] }],
          dependentRequired: { webhookEvents: ["webhookUrl"] },
        }),
    )
  : notInTheWorker;

export const submissionBody = () => ({
  required: true,
  content: { "application/json": { schema: documentedSubmission() } },
});

/** The problems reading a submission's `source` (a CRM list) may add, by status. */
export const sourceProblems = {
  codes409: ["crm_not_connected", "crm_unauthorized"],
  codes422: ["crm_list_not_found", "crm_refused"],
  503: () =>
    problem(["crm_unavailable"], "The CRM did not answer, or asked us to wait (source only)", {
      headers: { "Retry-After": header("Seconds to wait.", 10, true) },
    }),
  502: () =>
    problem(
      ["crm_bad_answer"],
      "The CRM answered what its API does not: a page, an unknown shape, an answer not finished in time, pages without end (source only)",
      { headers: { "Retry-After": header("Seconds to wait.", 10, true) } },
    ),
} as const;

/** The 413 and 415 of a route that reads a submission. */
export const bodyProblems = () => ({
  ...jsonBodyProblems(),
  413: problem(["too_many_items", "payload_too_large"], "More items than a batch holds, or a body over the size limit"),
});
