// Where every tool that talks to a running API finds it, in one rule: the --base-url
// flag, then $CONTACT_INFO_BASE_URL, then what `npm run dev` serves by default.
import { usageError } from "./cli";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8787";

export const BASE_URL_HELP = `the API (default: $CONTACT_INFO_BASE_URL, else ${DEFAULT_BASE_URL}, what \`npm run dev\` serves)`;

/** The API's root, without a trailing slash: `flag` if given, else the environment's, else the default. */
export function resolveBaseUrl(flag: string | undefined): string {
  const fromEnvironment = process.env.CONTACT_INFO_BASE_URL || undefined;
  const [source, value] =
    flag !== undefined
      ? ["--base-url", flag]
      : fromEnvironment !== undefined
        ? ["CONTACT_INFO_BASE_URL", fromEnvironment]
        : ["the default", DEFAULT_BASE_URL];
  const url = value.replace(/\/+$/, "");
  if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol))
    throw usageError(`${source} must be an http(s) URL such as ${DEFAULT_BASE_URL}, not ${JSON.stringify(value)}`);
  return url;
}

/** Whether `url` is on this machine (a local `npm run dev`, on any port), where the development keys work. */
export function isLoopback(url: string): boolean {
  return ["127.0.0.1", "localhost", "[::1]"].includes(new URL(url).hostname);
}
