// The paths the client calls, as the generated document types them, with two
// adjustments so callers never depend on how the document happens to spell them:
// the API key is set once on the client (so no operation takes an `x-api-key`
// header parameter), and `limit` is a number. Once the document declares the key
// only as a security scheme and `limit` as an integer, both are no-ops.
import type { operations, paths } from "./schema";

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type HeaderWithoutKey<P> = P extends { header?: infer H }
  ? [NonNullable<H>] extends [never]
    ? P
    : "x-api-key" extends keyof NonNullable<H>
      ? Simplify<Omit<P, "header"> & { header?: Simplify<Omit<NonNullable<H>, "x-api-key">> }>
      : P
  : P;

type NumericLimit<P> = P extends { query?: infer Q }
  ? "limit" extends keyof NonNullable<Q>
    ? Simplify<Omit<P, "query"> & { query?: Simplify<Omit<NonNullable<Q>, "limit"> & { limit?: number }> }>
    : P
  : P;

type ClientOperation<Op> = Op extends { parameters: infer P }
  ? Simplify<Omit<Op, "parameters"> & { parameters: NumericLimit<HeaderWithoutKey<P>> }>
  : Op;

export type ClientPaths = { [Path in keyof paths]: { [Method in keyof paths[Path]]: ClientOperation<paths[Path][Method]> } };

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
export type SubmitItem = SubmitRequest["items"][number];
export type Field = NonNullable<SubmitRequest["fields"]>[number];
export type Environment = operations["submitContactInfoBatch"]["parameters"]["path"]["environment"];
export type ItemStatusFilter = NonNullable<NonNullable<operations["getContactInfoBatch"]["parameters"]["query"]>["status"]>;
export type RateLimitInfo = operations["getRateLimits"]["responses"][200]["content"]["application/json"][number];
