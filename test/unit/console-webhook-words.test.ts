import { describe, expect, it } from "vitest";
import {
  attemptsLine,
  attemptWords,
  DELIVERY_STATUS_WORDS,
  EVENT_WORDS,
  endpointState,
} from "../../console/webhook-words";
import { ATTEMPT_ERRORS, DELIVERY_STATUSES, ENDPOINT_EVENTS } from "../../src/webhooks/endpoint-events";

describe("the console's Webhooks tab says endpoints and deliveries in words (issue 49)", () => {
  it("names every event, delivery status and attempt error the API can answer, never by its code", () => {
    for (const event of ENDPOINT_EVENTS) expect(EVENT_WORDS[event]).toMatch(/^[A-Z][a-z ]/);
    for (const status of DELIVERY_STATUSES) expect(DELIVERY_STATUS_WORDS[status]).toMatch(/^[A-Z][a-z ]/);
    for (const error of ATTEMPT_ERRORS) {
      const said = attemptWords({ statusCode: null, error });
      expect(said).not.toContain("_");
      expect(said).not.toBe(error);
    }
  });

  it("an attempt by its status code, or why it had no answer; a delivery by its count and its last attempt", () => {
    expect(attemptWords({ statusCode: 204, error: null })).toBe("answered 204");
    expect(attemptWords({ statusCode: null, error: "timeout" })).toBe("no answer in time");
    expect(attemptsLine([])).toBe("not tried yet");
    expect(attemptsLine([{ statusCode: 204, error: null }])).toBe("1 attempt, answered 204");
    expect(
      attemptsLine([
        { statusCode: 500, error: null },
        { statusCode: null, error: "refused" },
      ]),
    ).toBe("2 attempts, last could not connect");
  });

  it("an endpoint disabled by the API says why; one disabled by its owner just says so", () => {
    expect(endpointState({ status: "enabled", disabledReason: null })).toBe("Enabled");
    expect(endpointState({ status: "disabled", disabledReason: null })).toBe("Disabled");
    expect(endpointState({ status: "disabled", disabledReason: "failing for 5 days" })).toBe(
      "Disabled: failing for 5 days",
    );
  });
});
