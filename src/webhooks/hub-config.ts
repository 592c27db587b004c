import * as z from "zod";
import { configOf, whole } from "../base/config";
import { parseSchedule } from "./schedule";

// The hub's vars (wrangler.toml), checked once per isolate like the Worker's others (base/config.ts).
const hubConfigSchema = z
  .object({
    WEBHOOK_RETRY_SCHEDULE: z.string().transform((text, ctx) => {
      const schedule = parseSchedule(text);
      if (schedule === null) {
        ctx.addIssue({ code: "custom", message: 'must be comma-separated durations such as "5s,5m,2h"' });
        return z.NEVER;
      }
      return schedule;
    }),
    WEBHOOK_DISABLE_AFTER_SECONDS: whole(1),
    WEBHOOK_LOG_RETENTION_SECONDS: whole(1),
    WEBHOOK_TIMEOUT_MS: whole(1),
  })
  .transform((vars) => ({
    retryScheduleSeconds: vars.WEBHOOK_RETRY_SCHEDULE,
    disableAfterSeconds: vars.WEBHOOK_DISABLE_AFTER_SECONDS,
    logRetentionSeconds: vars.WEBHOOK_LOG_RETENTION_SECONDS,
    timeoutMs: vars.WEBHOOK_TIMEOUT_MS,
  }));

export type HubConfig = z.output<typeof hubConfigSchema>;

export const readHubConfig: (env: Env) => HubConfig = configOf(hubConfigSchema);
