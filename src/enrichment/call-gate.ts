import type { RateWindow } from "../base/vendor-limits";
import type { LeaseDecision } from "../vendor-governor/lease-decision";
import { TransientProviderError } from "./provider";

/** Our rate governor held the call back: the vendor was not asked, and the item is retried later. */
export class VendorHeldError extends TransientProviderError {}

/** What fetchJson asks of a governed vendor's budget around each call. */
export interface CallGate {
  /** Resolves when the call may go; rejects with VendorHeldError when it cannot go soon. */
  take(): Promise<void>;
  /** The vendor answered 429 with a retry time: the governor pauses it for every consumer. */
  pause(retryAfterSeconds: number): Promise<void>;
}

/** The governor object's RPC methods, as a consumer reaches them. */
export interface Lessor {
  lease(want: number, windows: readonly RateWindow[]): Promise<LeaseDecision>;
  pause(retryAfterSeconds: number, vendor: string): Promise<void>;
}

// How long a call waits in its consumer invocation for a token. Waiting costs no CPU, and
// keeps the invocation's items moving down the waterfall while the vendor's budget allows,
// where an item sent back to the queue waits a whole message delay (whole seconds) and
// takes a later invocation. Past it (a paused vendor, a long window spent) the item goes
// back with the wait the governor named (its Retry-After). 2 s held back most of a busy
// invocation's calls in bench:live, each then passing the vendor over for that attempt. A
// consumer invocation may run for 15 minutes of wall time.
export const MAX_TOKEN_WAIT_MS = 30_000;

type Waiter = { resolve: () => void; reject: (error: Error) => void; deadline: number };

/**
 * One consumer invocation's side of a vendor's shared budget. Calls wait in line;
 * one lease RPC at a time asks for as many tokens as calls are waiting (a block:
 * those that arrive while it is in flight are served by the next), so every token
 * granted is spent at once and none is kept unused. When none is granted, the
 * calls that could not be served by their deadline are held (VendorHeldError),
 * and the others wait for the moment the governor named.
 */
export function callGate(vendor: string, windows: readonly RateWindow[], lessor: () => Promise<Lessor>): CallGate {
  const waiters: Waiter[] = [];
  let asking = false;

  const hold = (waiter: Waiter, retryAfterSeconds?: number, why = "held by the rate governor") =>
    waiter.reject(new VendorHeldError(`${vendor}: ${why}`, retryAfterSeconds));

  const serve = async (): Promise<void> => {
    if (asking) return;
    asking = true;
    try {
      while (waiters.length > 0) {
        const decision = await (await lessor()).lease(waiters.length, windows);
        if (!("retryAt" in decision)) {
          for (const waiter of waiters.splice(0, decision.granted)) waiter.resolve();
          continue;
        }
        const { retryAt } = decision;
        const retryAfterSeconds = Math.max(1, Math.ceil((retryAt - decision.at) / 1000));
        for (let i = waiters.length - 1; i >= 0; i--) {
          if ((waiters[i] as Waiter).deadline < retryAt) hold(waiters.splice(i, 1)[0] as Waiter, retryAfterSeconds);
        }
        if (waiters.length > 0) await new Promise((resolve) => setTimeout(resolve, Math.max(0, retryAt - Date.now())));
      }
    } catch {
      // The governor could not be asked: the calls wait for a later attempt, never go unbudgeted.
      for (const waiter of waiters.splice(0)) hold(waiter, undefined, "the rate governor could not be asked");
    } finally {
      asking = false;
    }
  };

  return {
    take: () =>
      new Promise<void>((resolve, reject) => {
        waiters.push({ resolve, reject, deadline: Date.now() + MAX_TOKEN_WAIT_MS });
        void serve();
      }),
    async pause(retryAfterSeconds) {
      try {
        await (await lessor()).pause(retryAfterSeconds, vendor);
      } catch {
        // Best effort: the vendor will answer 429 again, and that report may get through.
      }
    },
  };
}
