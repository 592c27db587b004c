import type { Environment } from "../environment";
import { liveSource } from "./live-source";
import { sandboxSource } from "./sandbox-source";
import type { ContactSource } from "./source";

export function sourceFor(environment: Environment): ContactSource {
  return environment === "test" ? sandboxSource : liveSource;
}
