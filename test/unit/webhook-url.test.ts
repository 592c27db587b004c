import { describe, expect, it } from "vitest";
import { addressesProblem, webhookUrlProblem } from "../../src/contact-info/webhook-url";
import { judgeAddresses } from "../../src/webhooks/webhook-destination";

const SPECIAL = "special-purpose address";
const HOST = "must name a public host";
const PORT = "must use port 443";

describe("webhook URLs in live", () => {
  it.each([
    // Names of this machine or a metadata service, with the forms that used to slip past the list.
    ["https://localhost/x", HOST],
    ["https://localhost./x", HOST],
    ["https://localhost../x", HOST],
    ["https://LOCALHOST./x", HOST],
    ["https://localhost%2e/x", HOST],
    ["https://%6c%6f%63%61%6c%68%6f%73%74/x", HOST],
    ["https://metadata.google.internal/x", HOST],
    ["https://metadata.google.internal./x", HOST],
    ["https://printer.local/x", HOST],
    ["https://printer.local./x", HOST],
    ["https://api.localhost/x", HOST],
    ["https://router.home.arpa./x", HOST],
    ["https://intranet-host/x", HOST],
    // IPv4 special-purpose ranges.
    ["https://127.0.0.1/x", SPECIAL],
    ["https://127.0.0.1./x", SPECIAL],
    ["https://127.255.255.254/x", SPECIAL],
    ["https://0.0.0.0/x", SPECIAL],
    ["https://0.1.2.3/x", SPECIAL],
    ["https://10.0.0.8/x", SPECIAL],
    ["https://172.16.0.1/x", SPECIAL],
    ["https://172.31.255.255/x", SPECIAL],
    ["https://192.168.1.10/x", SPECIAL],
    ["https://169.254.169.254/latest/meta-data", SPECIAL],
    ["https://100.64.0.1/x", SPECIAL],
    ["https://100.127.255.254/x", SPECIAL],
    ["https://192.0.0.8/x", SPECIAL],
    ["https://192.0.2.10/x", SPECIAL],
    ["https://198.51.100.7/x", SPECIAL],
    ["https://203.0.113.9/x", SPECIAL],
    ["https://198.18.0.1/x", SPECIAL],
    ["https://198.19.255.254/x", SPECIAL],
    ["https://224.0.0.1/x", SPECIAL],
    ["https://239.255.255.250/x", SPECIAL],
    ["https://240.0.0.1/x", SPECIAL],
    ["https://255.255.255.255/x", SPECIAL],
    // Numeric forms the URL parser turns into 127.0.0.1.
    ["https://2130706433/x", SPECIAL],
    ["https://0x7f.1/x", SPECIAL],
    ["https://0x7f000001/x", SPECIAL],
    ["https://0177.0.0.1/x", SPECIAL],
    ["https://127.1/x", SPECIAL],
    // IPv6 special-purpose ranges, and IPv4 hidden inside IPv6.
    ["https://[::]/x", SPECIAL],
    ["https://[::1]/x", SPECIAL],
    ["https://[fc00::1]/x", SPECIAL],
    ["https://[fd00::1]/x", SPECIAL],
    ["https://[fe80::1]/x", SPECIAL],
    ["https://[fec0::1]/x", SPECIAL],
    ["https://[ff02::1]/x", SPECIAL],
    ["https://[2001:db8::1]/x", SPECIAL],
    ["https://[3fff::1]/x", SPECIAL],
    ["https://[2001:2::1]/x", SPECIAL],
    ["https://[100::1]/x", SPECIAL],
    ["https://[::ffff:127.0.0.1]/x", SPECIAL],
    ["https://[::ffff:10.0.0.1]/x", SPECIAL],
    ["https://[::ffff:169.254.169.254]/x", SPECIAL],
    ["https://[::ffff:7f00:1]/x", SPECIAL],
    ["https://[::127.0.0.1]/x", SPECIAL],
    ["https://[::ffff:0:a00:1]/x", SPECIAL],
    ["https://[64:ff9b::7f00:1]/x", SPECIAL],
    ["https://[64:ff9b::a9fe:a9fe]/x", SPECIAL],
    ["https://[64:ff9b:1::a00:1]/x", SPECIAL],
    ["https://[2002:7f00:1::1]/x", SPECIAL],
    ["https://[2002:a00:1::1]/x", SPECIAL],
    ["https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/x", SPECIAL],
    // Ports: 443 or unprivileged only.
    ["https://hooks.example.com:0/x", PORT],
    ["https://hooks.example.com:22/x", PORT],
    ["https://hooks.example.com:80/x", PORT],
    ["https://hooks.example.com:1023/x", PORT],
    ["https://[2606:4700:4700::1111]:25/x", PORT],
    // Scheme, credentials, syntax.
    ["http://hooks.example.com/x", "must use https"],
    ["ftp://hooks.example.com/x", "must use https"],
    ["http://127.0.0.1:8080/x", "must use https"],
    ["https://user:pass@hooks.example.com/x", "credentials"],
    ["not a url", "absolute URL"],
  ])("refuses %s", (url, reason) => {
    expect(webhookUrlProblem(url, "live")).toEqual(expect.stringContaining(reason));
  });

  it.each([
    "https://hooks.example.com/x",
    "https://hooks.example.com./x",
    "https://hooks.example.com:443/x",
    "https://hooks.example.com:1024/x",
    "https://hooks.example.com:8443/x",
    "https://hooks.example.com:65535/x",
    "https://93.184.215.14/x",
    "https://1.1.1.1/x",
    "https://100.63.255.255/x",
    "https://100.128.0.1/x",
    "https://172.32.0.1/x",
    "https://198.20.0.1/x",
    "https://[2606:4700:4700::1111]/x",
    "https://[2a00:1450:4001:80b::200e]:8443/x",
    "https://[::ffff:1.1.1.1]/x",
  ])("accepts %s", (url) => {
    expect(webhookUrlProblem(url, "live")).toBeNull();
  });
});

describe("names that resolve to private addresses", () => {
  // Their text passes; what they resolve to is judged apart (judgeAddresses, below), over DNS-over-HTTPS
  // when the batch is created and before each delivery (integration/webhook-destination.test.ts).
  it.each(["https://localtest.me/hook", "https://127.0.0.1.nip.io/hook"])("%s passes the text check in live", (url) => {
    expect(webhookUrlProblem(url, "live")).toBeNull();
  });
});

describe("special-use and private suffixes in live", () => {
  it.each([
    "hooks.test",
    "hooks.example",
    "hooks.invalid",
    "hooks.localhost",
    "duckduckgogg42xjoc72x3sjasowoarfbgcmvfimaftt6twagswzczad.onion",
    "printer.local",
    "db.internal",
    "router.home.arpa",
    "nas.home",
    "erp.corp",
    "files.lan",
    "api.default.svc",
    "wiki.intranet",
    "HOOKS.TEST.",
  ])("refuses https://%s/x as text", (host) => {
    expect(webhookUrlProblem(`https://${host}/x`, "live")).toBe("must name a public host");
  });

  it.each(["hooks.test", "nas.home", "api.svc"])(
    "leaves https://%s/x to test, whose receivers may be fakes",
    (host) => {
      expect(webhookUrlProblem(`https://${host}/x`, "test")).toBeNull();
    },
  );

  it.each(["hooks.testing.com", "home.example.com", "corp.io", "svc.dev"])("accepts https://%s/x", (host) => {
    expect(webhookUrlProblem(`https://${host}/x`, "live")).toBeNull();
  });
});

describe("what a webhook name resolves to (the pure decision)", () => {
  it.each([
    [["127.0.0.1"]],
    [["::1"]],
    [["10.0.0.8"]],
    [["172.16.4.4"]],
    [["192.168.1.1"]],
    [["169.254.169.254"]],
    [["100.64.0.1"]],
    [["fd00::1"]],
    [["fe80::1"]],
    [["::ffff:10.0.0.1"]],
    [["0.0.0.0"]],
    [["93.184.215.14", "10.0.0.1"]],
    [["93.184.215.14", "fd00::1"]],
  ])("refuses %j", (addresses) => {
    const verdict = judgeAddresses(addresses);
    expect(verdict.kind).toBe("refused");
    expect(verdict).toEqual({ kind: "refused", problem: addressesProblem(addresses) });
    expect(addressesProblem(addresses)).toMatch(/^must not resolve to a loopback, private, link-local, shared /);
  });

  it("names the first address inside", () => {
    expect(addressesProblem(["93.184.215.14", "10.0.0.1", "127.0.0.1"])).toMatch(/\(it resolves to 10\.0\.0\.1\)$/);
  });

  it.each([[["93.184.215.14"]], [["2606:4700:4700::1111"]], [["1.1.1.1", "2a00:1450:4001:80b::200e"]]])(
    "accepts %j",
    (addresses) => {
      expect(judgeAddresses(addresses)).toEqual({ kind: "public" });
    },
  );

  it("knows nothing from no address: accepted at creation, not sent to", () => {
    expect(judgeAddresses([])).toEqual({ kind: "unknown" });
  });
});

describe("webhook URLs in test", () => {
  it.each([
    "http://127.0.0.1:9999/x",
    "https://127.0.0.1/x",
    "http://localhost:8080/x",
    "http://localhost.:8080/x",
    "http://[::1]:8080/x",
    "https://hooks.example.com/x",
  ])("accepts %s for local development", (url) => {
    expect(webhookUrlProblem(url, "test")).toBeNull();
  });

  it.each([
    ["http://hooks.example.com/x", "must use https"],
    ["http://10.0.0.1/x", "must use https"],
    ["https://10.0.0.1/x", SPECIAL],
    ["https://2852039166/x", SPECIAL],
    ["https://printer.local./x", HOST],
    ["https://hooks.example.com:22/x", PORT],
  ])("still refuses %s", (url, reason) => {
    expect(webhookUrlProblem(url, "test")).toEqual(expect.stringContaining(reason));
  });
});
