// The key tool's commands for one key's own settings: `set-budget KEYID --monthly-credits N|none` (its cap
// per UTC month, inside its customer's budget), `set-mcp-allowance KEYID --credits N` (what one MCP tool call
// may commit without asking its person), and `show KEYID`, which prints the record with both, never the
// webhook secret.
import { apiKeyWrites } from "../src/tools-api";
import { fail } from "./cli";
import { describeKey, listedRecordSchema, readKey } from "./key-records";
import type { KvStore } from "./kv-namespace";

/** `none` lifts the cap; otherwise a whole number of credits ≥ 0. */
function monthlyCreditsOf(value: string | undefined): number | null {
  if (value === "none") return null;
  const number = Number(value);
  if (!value || !/^\d+$/.test(value) || !Number.isSafeInteger(number))
    fail("--monthly-credits must be a whole number of credits (0 or more), or none");
  return number;
}

export async function setKeyBudget(
  keyId: string | undefined,
  value: string | undefined,
  kv: KvStore,
  remote: boolean,
): Promise<void> {
  const id = keyId ?? fail("set-budget needs a KEYID");
  const monthlyCredits = monthlyCreditsOf(value);
  const { hash, record } = await readKey(id, kv, remote);
  const { monthlyCredits: _, ...rest } = record;
  await kv.putAll(apiKeyWrites(hash, monthlyCredits === null ? rest : { ...rest, monthlyCredits }));
  console.log(
    monthlyCredits === null
      ? `${id}: no monthly cap of its own; the customer's budget applies (in effect within API_KEY_CACHE_TTL_SECONDS).`
      : `${id}: its batches may charge at most ${monthlyCredits} credits per UTC month, inside ${record.customerId}'s budget (in effect within API_KEY_CACHE_TTL_SECONDS).`,
  );
}

export async function setMcpAllowance(
  keyId: string | undefined,
  value: string | undefined,
  kv: KvStore,
  remote: boolean,
): Promise<void> {
  const id = keyId ?? fail("set-mcp-allowance needs a KEYID");
  const credits = Number(value);
  if (!value || !/^\d+$/.test(value) || !Number.isSafeInteger(credits))
    fail("--credits must be a whole number of at least 0");
  const { hash, record } = await readKey(id, kv, remote);
  await kv.putAll(apiKeyWrites(hash, { ...record, mcpAllowanceCredits: credits }));
  console.log(
    `${id}: an MCP tool call may commit ${credits} credit(s) without asking (in effect within API_KEY_CACHE_TTL_SECONDS).`,
  );
}

export async function showKey(keyId: string | undefined, json: boolean, kv: KvStore, remote: boolean): Promise<void> {
  const { record } = await readKey(keyId ?? fail("show needs a KEYID"), kv, remote);
  const shown = listedRecordSchema.parse(record);
  if (json) console.log(JSON.stringify(shown));
  else {
    console.log(describeKey(shown));
    console.log(
      `monthly cap: ${shown.monthlyCredits === undefined ? "none (the customer's budget applies)" : `${shown.monthlyCredits} credits`}`,
    );
    console.log(
      `MCP allowance: ${shown.mcpAllowanceCredits === undefined ? "the deployment's (MCP_ALLOWANCE_CREDITS)" : `${shown.mcpAllowanceCredits} credits`} per tool call without asking`,
    );
  }
}
