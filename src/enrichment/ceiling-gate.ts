import { log } from "../base/log";
import { type CeilingGrant, MAX_CALLS_PER_TAKE } from "../vendor-governor/daily-ceiling";
import { VendorHeldError } from "./call-gate";

/**
 * The vendor is at the operator's ceiling for the UTC day (VENDOR_DAILY_CALLS): it was not called. Neither
 * transient (asking again today cannot help) nor the vendor's fault: the waterfall and the verifiers pass
 * it over, reported `skipped` with reason `vendor_budget_exhausted`.
 */
export class VendorBudgetExhaustedError extends Error {
  override readonly name = "VendorBudgetExhaustedError";
}

/** What fetchJson asks of a vendor's daily ceiling around each call. */
export interface CallCeiling {
  /** Throws VendorBudgetExhaustedError at once when this consumer already knows the day's calls are spent. */
  refuseWhenSpent(): void;
  /**
   * Resolves when the call may go, counted; rejects with VendorBudgetExhaustedError at the ceiling, or with
   * VendorHeldError when the count cannot be asked (the call then waits for a later attempt, never uncounted).
   */
  take(): Promise<void>;
}

/** The ceiling object's RPC method, as a consumer reaches it. */
export interface CeilingCounter {
  take(want: number, ceiling: number): Promise<CeilingGrant>;
}

type Waiter = { resolve: () => void; reject: (error: Error) => void };

/**
 * One consumer invocation's side of a vendor's daily ceiling. Calls wait in line; one take RPC at a
 * time asks for as many as are waiting, and the calls granted go at once, so what is counted is what is
 * called. Once the object grants fewer than asked, the rest of the day's calls of this invocation are
 * refused here, without asking.
 */
export function ceilingGate(vendor: string, ceiling: number, counter: () => CeilingCounter): CallCeiling {
  const waiters: Waiter[] = [];
  let asking = false;
  let spentUntil = 0;
  const spent = () => new VendorBudgetExhaustedError(`${vendor}: at its ceiling of ${ceiling} calls today`);

  const serve = async (): Promise<void> => {
    if (asking) return;
    asking = true;
    try {
      while (waiters.length > 0) {
        const asked = Math.min(waiters.length, MAX_CALLS_PER_TAKE);
        const grant = await counter().take(asked, ceiling);
        const served = waiters.splice(0, asked);
        for (const waiter of served.slice(0, grant.granted)) waiter.resolve();
        if (grant.granted < asked) {
          // Once per consumer invocation that finds it spent: the operator sees the day's ceiling reached.
          if (spentUntil === 0) log("vendor_ceiling_reached", { vendor, ceiling, calls: grant.calls });
          spentUntil = grant.resetsAt;
          for (const waiter of [...served.slice(grant.granted), ...waiters.splice(0)]) waiter.reject(spent());
        }
      }
    } catch {
      for (const waiter of waiters.splice(0))
        waiter.reject(new VendorHeldError(`${vendor}: the daily ceiling could not be asked`));
    } finally {
      asking = false;
    }
  };

  return {
    refuseWhenSpent() {
      if (Date.now() < spentUntil) throw spent();
    },
    take() {
      if (Date.now() < spentUntil) return Promise.reject(spent());
      return new Promise<void>((resolve, reject) => {
        waiters.push({ resolve, reject });
        void serve();
      });
    },
  };
}
