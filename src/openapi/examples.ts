// Complete examples for the document: a submit request and the batch it makes, as
// the sandbox (`test`) answers it. test/integration/openapi.test.ts validates each
// against its schema with Ajv, so they cannot drift from the shapes.

const BATCH_ID = "3e1cab3a-0527-4fea-987c-d486f470829c";

export const submitRequestExample = {
  items: [
    { externalId: "crm-1", firstName: "Ada", lastName: "Lovelace", companyDomain: "analytical.example" },
    {
      externalId: "crm-2",
      fullName: "Grace Hopper",
      companyName: "Cobol Systems",
      linkedinUrl: "https://www.linkedin.com/in/grace-hopper",
    },
    { externalId: "crm-3", email: "alan.turing@bombe.example" },
  ],
  fields: ["email", "phone"],
  maxCredits: 100,
};

/**
 * What POST …/estimate answers for submitRequestExample: three people, each able to cost an email and a phone,
 * for a customer without a monthly budget (the /docs page's samples answer exactly this).
 */
export const estimateExample = {
  itemCount: 3,
  validItems: 3,
  invalidItems: 0,
  duplicateItems: 0,
  cachedItems: 0,
  maxCredits: 33,
  remainingCredits: null,
};

export const receiptExample = {
  batchId: BATCH_ID,
  itemCount: 3,
  message: "Accepted 3 item(s); 3 queued for processing. Poll the Location URL for results.",
};

export const batchLocationExample = `/v2/test/person/contact-info/${BATCH_ID}`;

export const batchStatusExample = {
  id: BATCH_ID,
  status: "processing",
  totalItems: 3,
  completedItems: 1,
  failedItems: 1,
  createdAt: "2026-11-22T10:00:00.000Z",
  completedAt: null,
  creditsCharged: 11,
  creditsRefunded: 0,
  maxCredits: 100,
  webhook: {
    url: "https://example.com/hooks/contact-info",
    state: "pending",
    attempts: 0,
    lastStatus: null,
    refused: null,
  },
  items: [
    {
      index: 0,
      externalId: "crm-1",
      status: "completed",
      outcome: "found",
      input: { externalId: "crm-1", firstName: "Ada", lastName: "Lovelace", companyDomain: "analytical.example" },
      emails: [
        {
          address: "ada.lovelace@analytical.example",
          type: "work",
          status: "valid",
          confidence: 95,
          source: "sandbox",
          verifiedAt: "2026-11-20T09:30:04.000Z",
        },
      ],
      phones: [
        {
          number: "+14155550132",
          type: "mobile",
          confidence: 80,
          source: "sandbox",
          verifiedAt: "2026-11-20T09:30:04.000Z",
        },
      ],
      error: null,
      fromCache: false,
      credits: 11,
      sources: [{ name: "sandbox", outcome: "found" }],
    },
    {
      index: 1,
      externalId: "crm-2",
      status: "pending",
      outcome: null,
      input: {
        externalId: "crm-2",
        fullName: "Grace Hopper",
        companyName: "Cobol Systems",
        linkedinUrl: "https://www.linkedin.com/in/grace-hopper",
      },
      emails: [],
      phones: [],
      error: null,
      fromCache: false,
      credits: 0,
      sources: [],
    },
    {
      index: 2,
      externalId: "crm-3",
      status: "failed",
      outcome: null,
      input: { externalId: "crm-3", email: "alan.turing@bombe.example" },
      emails: [],
      phones: [],
      error: { code: "processing_timeout", message: "the item was not processed before the batch deadline" },
      fromCache: false,
      credits: 0,
      sources: [],
    },
  ],
  nextCursor: null,
};
