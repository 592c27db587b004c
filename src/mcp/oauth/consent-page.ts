// The consent page (GET /oauth/authorize): a plain form, no script, that a person reads before letting
// an assistant act with their API key. Every string from the assistant (its name, its domain, the
// redirect host) is escaped: dynamic registration and metadata documents let anyone choose them.
import type { ConsentDescription } from "@cloudflare/workers-oauth-provider";
import { MAX_ALLOWANCE_CREDITS, type McpScope } from "../../connections/connection";

const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

/** The form's field names: the key's contains "key", so password managers and people recognise it. */
export const CONSENT_FIELDS = {
  handle: "handle",
  apiKey: "api_key",
  scope: "scope",
  allowance: "allowance_credits",
  decision: "decision",
} as const;

const SCOPE_WORDS: Record<McpScope, string> = {
  read: "Read: estimate costs, and read your batches, usage and rate limits",
  spend: "Spend credits: enrich contacts and start batches (each within the allowance below, or asked)",
  erase: "Erase: delete a person's data from your batches and suppress them from future ones",
};

export interface ConsentView {
  details: ConsentDescription;
  handle: string;
  /** The form's action: this URL, with the authorization request in its query. */
  action: string;
  /** The scopes ticked: what the assistant asked for (or everything it may have), then what the person left. */
  checked: ReadonlySet<McpScope>;
  allowance: string;
  /** Shown above the form after a refusal (a wrong key, no scope ticked, an allowance not a number). */
  message?: string;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:34rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
h1{font-size:1.4rem}fieldset{border:1px solid #ccc;border-radius:6px;margin:1rem 0}label{display:block;margin:.4rem 0}
input[type=password],input[type=number]{font:inherit;padding:.3rem;width:100%;box-sizing:border-box}
.message{background:#fde8e8;border:1px solid #e0a0a0;padding:.6rem;border-radius:6px}.note{color:#555;font-size:.9rem}
button{font:inherit;padding:.5rem 1.2rem;margin-right:.6rem}`;

/** The Content-Security-Policy of the page: nothing runs, the style is this one, the form goes home or to the client. */
export async function consentPolicy(redirectUri: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(STYLE));
  const hash = btoa(String.fromCharCode(...new Uint8Array(digest)));
  // A form's redirect is held to form-action too: Allow and Deny end at the client's redirect URI.
  const target = URL.canParse(redirectUri) ? ` ${new URL(redirectUri).origin}` : "";
  return `default-src 'none'; style-src 'sha256-${hash}'; form-action 'self'${target}; frame-ancestors 'none'; base-uri 'none'`;
}

export function consentPage({ details, handle, action, checked, allowance, message }: ConsentView): string {
  const name = escapeHtml(details.clientName);
  const origin = details.clientDomain
    ? `Published by <strong>${escapeHtml(details.clientDomain)}</strong>.`
    : "This assistant registered itself: its name is not verified.";
  const loopback = details.redirectIsLoopback
    ? "<p><strong>This sends access to an app on this computer.</strong> Continue only if you just started connecting from it.</p>"
    : "";
  const scopes = (Object.keys(SCOPE_WORDS) as McpScope[])
    .map(
      (scope) =>
        `<label><input type="checkbox" name="${CONSENT_FIELDS.scope}" value="${scope}"${checked.has(scope) ? " checked" : ""}> ${SCOPE_WORDS[scope]}</label>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Connect ${name}</title><style>${STYLE}</style></head>
<body>
<h1>Let ${name} use your contact-info account?</h1>
<p>${origin} Access goes to <strong>${escapeHtml(details.redirectHost)}</strong>.</p>
${loopback}
${message ? `<p class="message" role="alert">${escapeHtml(message)}</p>` : ""}
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="${CONSENT_FIELDS.handle}" value="${escapeHtml(handle)}">
<label for="key">Your API key</label>
<input id="key" type="password" name="${CONSENT_FIELDS.apiKey}" autocomplete="off" required>
<p class="note">The key stays here: the assistant gets a token of its own, for this key's customer and environment
(a <code>ck_live_</code> key: live data and credits; a <code>ck_test_</code> key: the sandbox).
You can end it at any time (<code>DELETE /v2/{environment}/me/connections/{id}</code>).</p>
<fieldset><legend>${name} may</legend>
${scopes}
</fieldset>
<label for="allowance">Credits one call may spend without asking you (0: always ask)</label>
<input id="allowance" type="number" name="${CONSENT_FIELDS.allowance}" min="0" max="${MAX_ALLOWANCE_CREDITS}" step="1" value="${escapeHtml(allowance)}">
<p><button type="submit" name="${CONSENT_FIELDS.decision}" value="allow">Allow</button>
<button type="submit" name="${CONSENT_FIELDS.decision}" value="deny" formnovalidate>Deny</button></p>
</form>
</body></html>`;
}
