// The account as the API shows it: response shapes as zod schemas, the one source
// of both the TypeScript types and the OpenAPI document (and the MCP tools' output schemas); made on
// first use (src/base/once.ts), and those only the document reads under OPENAPI_METADATA.
import * as z from "zod";
import { notInTheWorker, once } from "../base/once";
import { batchSummarySchema } from "../contact-info/batch-views";
import { usageCountersSchema } from "./usage";

export const batchListSchema = once(() =>
  z
    .object({
      batches: z.array(batchSummarySchema().meta({ id: "BatchSummary" })).meta({ description: "Newest first." }),
      nextCursor: z
        .string()
        .nullable()
        .meta({ description: "Pass as `cursor` for the next page; null on the last page." }),
    })
    .meta({ id: "BatchList" }),
);

export const usageReportSchema = once(() => {
  const usageDaySchema = usageCountersSchema.extend({ date: z.iso.date() }).meta({ id: "UsageDay" });
  return z
    .object({
      from: z.iso.date(),
      to: z.iso.date(),
      days: z
        .array(usageDaySchema)
        .meta({ description: "Every UTC day from `from` to `to`, oldest first; days without use count 0." }),
      totals: usageCountersSchema.meta({ id: "UsageCounters" }),
    })
    .meta({ id: "UsageReport" });
});

export type BatchList = z.infer<ReturnType<typeof batchListSchema>>;
export type UsageReport = z.infer<ReturnType<typeof usageReportSchema>>;

export const sourceScorecardsSchema = OPENAPI_METADATA
  ? once(() => {
      const count = z.number().int().min(0);
      const share = z.number().min(0).max(1).nullable();
      const scorecard = z
        .object({
          source: z.string().meta({
            description: "The data source (hunter, pdl, apollo, …); an email verifier as <name>:verifier.",
            example: "hunter",
          }),
          calls: count.meta({ description: "Items whose last attempt asked this source." }),
          hits: count.meta({ description: "Of those, the items it found something for." }),
          hitRate: share.meta({ description: "hits / calls, to 4 decimals; null without calls." }),
          verifiedValid: count.meta({
            description: "Items for which an email it found was judged valid by a verifier.",
          }),
          verifiedValidRate: share.meta({ description: "verifiedValid / hits; null without hits." }),
          reported: count.meta({
            description:
              "Contacts it found that you reported wrong (POST …/feedback): bounces, wrong numbers, wrong people.",
          }),
          creditsRefunded: count.meta({ description: "Credits those reports refunded." }),
          medianLatencyMs: z.number().int().min(0).nullable().meta({
            description:
              "The median time it took to answer, in ms (to within 5%: latencies are kept as a histogram); null without timed calls (a verifier, or calls recorded before).",
          }),
          rateLimited: count.meta({ description: "Items whose last attempt found it answering its rate limit (429)." }),
        })
        .meta({ id: "SourceScorecard" });
      return z
        .object({
          from: z.iso.date(),
          to: z.iso.date(),
          sources: z.array(scorecard).meta({ description: "One per source asked in the range, by name." }),
        })
        .meta({ id: "SourceScorecards" });
    })
  : notInTheWorker;

export type SourceScorecards = z.infer<ReturnType<typeof sourceScorecardsSchema>>;
export type SourceScorecard = SourceScorecards["sources"][number];
