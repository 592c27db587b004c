// The governor's figure for `npm run bench:governor`: lease calls on one VendorGovernor
// object (the service's own class) from `callers` concurrent loops, as many consumer
// invocations would make them, until `calls` have been answered. `limit` is the
// vendor's per-second limit the object decides against: high, every lease is granted
// and recorded; low, most are refused (a vendor saturated). Answers the calls, the
// milliseconds they took and the tokens granted.

import type { RateWindow, VendorGovernor } from "../../src/bench-api";

export { VendorGovernor } from "../../src/bench-api";

interface BenchEnv {
  VENDOR_GOVERNORS: DurableObjectNamespace<VendorGovernor>;
}

export default {
  async fetch(request, env) {
    const url = new URL(request.url);
    if (url.pathname !== "/lease") return new Response("not found", { status: 404 });
    const calls = Number(url.searchParams.get("calls") ?? 10_000);
    const callers = Number(url.searchParams.get("callers") ?? 50);
    const windows: RateWindow[] = [{ limit: Number(url.searchParams.get("limit") ?? 1_000_000), seconds: 1 }];
    const governor = env.VENDOR_GOVERNORS.getByName(url.searchParams.get("object") ?? crypto.randomUUID());
    await governor.lease(1, windows); // the object exists and is warm before the clock starts
    let left = calls;
    let granted = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: callers }, async () => {
        while (left-- > 0) {
          const decision = await governor.lease(10, windows);
          granted += decision.granted;
        }
      }),
    );
    const ms = performance.now() - started;
    return Response.json({
      calls,
      callers,
      ms: Math.round(ms),
      callsPerSecond: Math.round((calls / ms) * 1000),
      granted,
    });
  },
} satisfies ExportedHandler<BenchEnv>;
