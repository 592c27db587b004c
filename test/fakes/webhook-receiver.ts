// The webhook receivers (hooks.test, and 127.0.0.1 as in local development), by path (the
// table in upstreams.ts), keeping every delivery for the tests to read back.
import { json, sleepSlow } from "./answer.ts";

const deliveries = new Map<string, { headers: Record<string, string>; body: string }[]>();
const failedOnce = new Set<string>();
// Held receiver paths: each waiting request's release, until the test releases the path.
const held = new Map<string, (() => void)[]>();
const released = new Set<string>();

export async function webhookReceiver(request: Request, url: URL): Promise<Response> {
  if (url.pathname.startsWith("/__deliveries/"))
    return json(deliveries.get(url.pathname.slice("/__deliveries".length)) ?? []);
  if (url.pathname.startsWith("/__release/")) {
    const path = url.pathname.slice("/__release".length);
    released.add(path);
    for (const release of held.get(path) ?? []) release();
    held.delete(path);
    return new Response(null, { status: 204 });
  }
  // The body is read before the list is, so deliveries arriving together are all kept.
  const delivery = { headers: Object.fromEntries(request.headers), body: await request.text() };
  deliveries.set(url.pathname, [...(deliveries.get(url.pathname) ?? []), delivery]);
  if (url.pathname.startsWith("/fail-once/") && !failedOnce.has(url.pathname)) {
    failedOnce.add(url.pathname);
    return new Response("try again", { status: 500 });
  }
  if (url.pathname.startsWith("/always-500/")) return new Response("broken", { status: 500 });
  if (url.pathname.startsWith("/redirect/"))
    return new Response(null, { status: 307, headers: { location: "http://169.254.169.254/latest/meta-data" } });
  if (url.pathname.startsWith("/slow/")) await sleepSlow();
  if (url.pathname.startsWith("/held/") && !released.has(url.pathname))
    await new Promise<void>((resolve) => held.set(url.pathname, [...(held.get(url.pathname) ?? []), resolve]));
  return new Response(null, { status: 204 });
}
