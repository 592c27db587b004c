import type { EndpointType } from "./endpoint-types";

/**
 * An operation, as every door calls it (a REST route's handler, an MCP tool): its function, and the
 * endpoint type a call of it counts as. A route's rateLimit(…) and a tool's admission both read it here,
 * so neither door says it, and a tool needs nothing of a route.
 */
export type Operation<Run extends (...args: never[]) => unknown = (...args: never[]) => unknown> = Run & {
  readonly endpointType: EndpointType;
};

/** `run`, declared an operation whose calls count as `endpointType`. */
export const operation = <Run extends (...args: never[]) => unknown>(
  endpointType: EndpointType,
  run: Run,
): Operation<Run> => Object.assign(run, { endpointType });
