// What the fakes of test/fakes/ share: a JSON answer, and the one delay a "slow" scenario waits.

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

// "Slow" is twice the tests' 500 ms timeouts (PROVIDER_TIMEOUT_MS, WEBHOOK_TIMEOUT_MS), and no
// more: a test that needs a receiver to wait for an event holds it (/held/) instead of sleeping.
const SLOW_MS = 1_000;
export const sleepSlow = () => new Promise((resolve) => setTimeout(resolve, SLOW_MS));
