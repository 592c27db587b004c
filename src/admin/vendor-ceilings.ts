import { logError } from "../base/log";
import { readVendorConfig } from "../enrichment/vendor-config";
import { utcDay } from "../vendor-governor/daily-ceiling";
import { ceilingStub } from "../vendor-governor/stub";

/** One vendor's paid calls today (UTC) against its ceiling; `calls` null when its object could not be read. */
export interface VendorCeilingView {
  vendor: string;
  day: string;
  calls: number | null;
  ceiling: number;
}

/**
 * Each vendor VENDOR_DAILY_CALLS names, with its calls so far today across every customer (its
 * VendorCeiling's count): the operator's view beside the sources' scorecards (GET /admin/sources, `npm run
 * stats`). A vendor without a ceiling is not counted, so it is not listed.
 */
export async function vendorCeilings(env: Env, now = Date.now()): Promise<VendorCeilingView[]> {
  const { dailyCalls } = readVendorConfig(env);
  return Promise.all(
    [...dailyCalls].map(async ([vendor, ceiling]): Promise<VendorCeilingView> => {
      try {
        return { vendor, ...(await ceilingStub(env, vendor).today()), ceiling };
      } catch (error) {
        logError("vendor_ceiling_read_failed", error, { vendor });
        return { vendor, day: utcDay(now), calls: null, ceiling };
      }
    }),
  );
}
