// npm run crm -- connect|sync|apply|undo …
// A CRM from the command line, through the typed client in client/: connect one, preview (or make) a
// sync of a batch's results into it, apply a dry run, and undo what a sync wrote. The diff is printed record by record.
import { parseArgs } from "node:util";
import {
  type CrmProvider,
  type CrmSync,
  type CrmSyncRecord,
  createCrmClient,
  type Environment,
  ProblemError,
} from "../client/src/index";
import { CRM_PROVIDERS, perCrm } from "../src/tools-api";
import { explain } from "./api-errors";
import { BASE_URL_HELP, isLoopback, resolveBaseUrl } from "./base-url";
import { CliError, fail, runCli, usageError } from "./cli";
import { DEV_KEYS } from "./dev-keys";

// The CRMs and their tokens as the declarations say them (src/crm/crms.ts), named nowhere here.
const PROVIDERS: readonly CrmProvider[] = CRM_PROVIDERS;
const ANY_PROVIDER = PROVIDERS.join(" or ");
const TOKENS = perCrm(
  ({ words, endpoint }) =>
    `for ${words.label}, ${words.token}${"hostPatternVariable" in endpoint ? " and its instance URL" : ""}`,
);
const RULES = ["fill_empty", "overwrite", "skip_if_edited_by_user"] as const;

const USAGE = `usage: npm run crm -- COMMAND [options]
  connect PROVIDER --token TOKEN [--instance-url URL]
                     save a CRM's token (${TOKENS}),
                     after the CRM accepted it. Connect a CRM sandbox to a test key.
  sync BATCH_ID --provider PROVIDER [--dry-run | --write] [--match externalId|email] [--email RULE] [--phone RULE]
                     write a completed batch's emails and phones into the CRM: by default a dry run, printed as a diff
                     (before → after, and the rule that decided, per record); --write writes at once. RULE:
                     fill_empty (the default: only into an empty property), overwrite, skip_if_edited_by_user.
  apply SYNC_ID      write a dry run exactly as previewed (records changed since are left alone)
  undo SYNC_ID       put back what an applied sync wrote (its values from before, blanks included); a property
                     changed in the CRM since the write is left as it is. A sync is undone once.
  PROVIDER           ${ANY_PROVIDER}
  --environment ENV  test (the default) or live
  --base-url URL     ${BASE_URL_HELP}
  --api-key KEY      default: $CONTACT_INFO_API_KEY; on this machine (127.0.0.1, localhost), the local development key`;

function oneOf<T extends string>(values: readonly T[], value: string | undefined, flag: string): T | undefined {
  if (value === undefined) return undefined;
  const found = values.find((candidate) => candidate === value);
  if (!found) throw usageError(`${flag} must be one of ${values.join(", ")}, not ${JSON.stringify(value)}`);
  return found;
}

const show = (value: string | null) => (value === null ? "(empty)" : value);
const words = (code: string) => code.replaceAll("_", " ");

/** An undo's record: one line per property, restored (now → as before) or left (and why). */
function undoLines(record: CrmSyncRecord): string[] {
  const where = `#${record.index} ${record.recordId ? `record ${record.recordId}` : "no record"}`;
  if (record.changes.length === 0)
    return [`${where}: ${record.outcome ?? "pending"}${record.reason ? ` (${words(record.reason)})` : ""}`];
  return record.changes.map((change) => {
    const property = `${where} ${change.property}`;
    if (record.outcome === "failed" && change.action === "write")
      return `${property}: not restored — ${record.error?.code ?? "failed"}: ${record.error?.message ?? ""}`;
    if (change.action === "write") return `${property}: restored ${show(change.before)} → ${show(change.after)}`;
    return `${property}: left ${show(change.before)} (${words(change.reason ?? record.reason ?? "skipped")})`;
  });
}

function recordLines(record: CrmSyncRecord): string[] {
  const head = `#${record.index} ${record.recordId ? `record ${record.recordId}` : "no record"}: ${record.outcome ?? "pending"}`;
  const why = record.reason ? ` (${record.reason.replaceAll("_", " ")})` : "";
  const error = record.error ? ` — ${record.error.code}: ${record.error.message}` : "";
  return [
    head + why + error,
    ...record.changes.map(
      (change) =>
        `    ${change.property}: ${show(change.before)} → ${change.after}  ${change.action}` +
        `${change.reason ? ` (${change.reason.replaceAll("_", " ")})` : ""} [${change.rule}]`,
    ),
  ];
}

function summary(sync: CrmSync): string {
  const { updated, unchanged, skipped, failed } = sync.counts;
  const mode = sync.undoOf
    ? `undo of ${sync.undoOf}`
    : sync.dryRun
      ? sync.appliedAt
        ? "dry run, applied"
        : "dry run"
      : "written";
  const verb = sync.undoOf ? "restored" : sync.dryRun && !sync.appliedAt ? "would update" : "updated";
  const line = `sync ${sync.id} (${sync.provider}, ${mode}): ${sync.status}; ${verb} ${updated}, unchanged ${unchanged}, skipped ${skipped}, failed ${failed}`;
  return sync.error ? `${line}\n${sync.error.code}: ${sync.error.message}` : line;
}

async function main(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      provider: { type: "string" },
      token: { type: "string" },
      "instance-url": { type: "string" },
      "dry-run": { type: "boolean", default: false },
      write: { type: "boolean", default: false },
      match: { type: "string" },
      email: { type: "string" },
      phone: { type: "string" },
      environment: { type: "string", default: "test" },
      "base-url": { type: "string" },
      "api-key": { type: "string" },
    },
  });
  const [command, target, ...extra] = positionals;
  if (extra.length > 0) throw usageError(`unexpected ${extra.join(" ")}`);
  const environment = oneOf<Environment>(["test", "live"], values.environment, "--environment") ?? "test";
  const baseUrl = resolveBaseUrl(values["base-url"]);
  const localKey = isLoopback(baseUrl) ? DEV_KEYS.find((key) => key.environment === environment)?.key : undefined;
  const apiKey = values["api-key"] ?? process.env.CONTACT_INFO_API_KEY ?? localKey;
  if (!apiKey) throw usageError(`give the API key for ${baseUrl} with --api-key or CONTACT_INFO_API_KEY`);
  const crm = createCrmClient({ baseUrl, apiKey, environment });
  const printSync = async (id: string) => {
    const sync = await crm.waitForSync(id);
    const lines = sync.undoOf ? undoLines : recordLines;
    for await (const record of crm.records(id)) for (const line of lines(record)) console.log(line);
    console.log(summary(sync));
    if (sync.dryRun && !sync.appliedAt && sync.status === "completed")
      console.log(`apply it: npm run crm -- apply ${id}`);
    if (sync.status === "failed") throw new CliError(`the sync failed (${sync.error?.code ?? "unknown"})`);
  };
  try {
    if (command === "connect") {
      const provider = oneOf(PROVIDERS, target, "PROVIDER") ?? fail(`give the PROVIDER: ${ANY_PROVIDER}`);
      const token = values.token ?? fail("give the CRM's token with --token");
      const connection = await crm.connect(provider, token, values["instance-url"]);
      console.log(`connected ${connection.provider} (account ${connection.accountId}) to this ${environment} key`);
    } else if (command === "sync") {
      const batchId = target ?? fail("give the BATCH_ID to sync");
      const provider = oneOf(PROVIDERS, values.provider, "--provider") ?? fail(`give --provider ${ANY_PROVIDER}`);
      if (values.write && values["dry-run"]) throw usageError("--dry-run or --write, not both");
      const email = oneOf(RULES, values.email, "--email");
      const phone = oneOf(RULES, values.phone, "--phone");
      const fields = email || phone ? { ...(email ? { email } : {}), ...(phone ? { phone } : {}) } : undefined;
      const match = oneOf(["externalId", "email"] as const, values.match, "--match");
      await printSync(
        await crm.startSync({
          batchId,
          provider,
          dryRun: !values.write,
          ...(match ? { match } : {}),
          ...(fields ? { fields } : {}),
        }),
      );
    } else if (command === "apply") {
      const id = target ?? fail("give the SYNC_ID a dry run printed");
      await crm.applySync(id);
      await printSync(id);
    } else if (command === "undo") {
      await printSync(await crm.undoSync(target ?? fail("give the SYNC_ID of the applied sync to undo")));
    } else throw usageError(command ? `unknown command ${command}` : "give a command: connect, sync, apply or undo");
  } catch (error) {
    // A 404 here is an id this key does not have (explain takes a 404 for a wrong --base-url).
    if (error instanceof ProblemError && error.problem.code === "not_found")
      throw new CliError(`${error.problem.detail} Check the id, and --environment (${environment}).`);
    const line = explain(error, { baseUrl, environment });
    throw line === undefined ? error : new CliError(line);
  }
}

await runCli(USAGE, main);
