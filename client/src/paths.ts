// Names for the shapes the client hands out, taken from the types openapi-typescript
// generates from the document, so they cannot drift from it.
import type { operations } from "./schema.js";

type ResponseBodies<Op, Media extends string> = Op extends { responses: infer R }
  ? { [S in keyof R]: R[S] extends { content: { [M in Media]: infer B } } ? B : never }[keyof R]
  : never;

/** Every RFC 9457 problem body the API documents, a union that narrows on `code` as far as the document types it. */
export type ApiProblem = ResponseBodies<operations[keyof operations], "application/problem+json">;

export type BatchStatus = operations["getContactInfoBatch"]["responses"][200]["content"]["application/json"];
export type BatchItem = BatchStatus["items"][number];
export type BatchReceipt = operations["submitContactInfoBatch"]["responses"][202]["content"]["application/json"];
export type SubmitRequest = operations["submitContactInfoBatch"]["requestBody"]["content"]["application/json"];
export type Estimate = operations["estimateContactInfoBatch"]["responses"][200]["content"]["application/json"];
export type Budget = operations["getBudget"]["responses"][200]["content"]["application/json"];
export type SubmitItem = NonNullable<SubmitRequest["items"]>[number];
export type Field = NonNullable<SubmitRequest["fields"]>[number];
export type WebhookEvent = NonNullable<SubmitRequest["webhookEvents"]>[number];
export type Environment = operations["submitContactInfoBatch"]["parameters"]["path"]["environment"];
export type ItemStatusFilter = NonNullable<
  NonNullable<operations["getContactInfoBatch"]["parameters"]["query"]>["status"]
>;
export type RateLimitInfo = operations["getRateLimits"]["responses"][200]["content"]["application/json"][number];
