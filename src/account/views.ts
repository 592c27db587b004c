// The account as the API shows it: response shapes as zod schemas, the one source
// of both the TypeScript types and the OpenAPI document; made on first use (src/base/once.ts),
// as only the document reads them, so the Worker build drops them.
import * as z from "zod";
import { once } from "../base/once";
import { batchSummarySchema } from "../contact-info/batch-views";
import { usageCountersSchema } from "./usage";

export const batchListSchema = /* @__PURE__ */ once(() =>
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

export const usageReportSchema = /* @__PURE__ */ once(() => {
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
