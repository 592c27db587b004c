import { SSEStreamingApi } from "hono/streaming";
import { afterEach, describe, expect, it, vi } from "vitest";
import { HEARTBEAT_MS, relay } from "../../src/http/sse-relay";

const encoder = new TextEncoder();

/** A source the test writes into, a relay to an SSE response, and what the client has read of it. */
function relayed() {
  const { readable: source, writable: sink } = new TransformStream<Uint8Array, Uint8Array>();
  const writer = sink.getWriter();
  const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
  const sse = new SSEStreamingApi(writable, readable);
  const done = relay(source, sse).then(() => sse.close());
  const reader = sse.responseReadable.pipeThrough(new TextDecoderStream()).getReader();
  const read = async () => (await reader.read()).value;
  return {
    push: (text: string) => void writer.write(encoder.encode(text)),
    end: () => void writer.close(),
    read,
    done,
  };
}

describe("relay", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("copies events, and sends a heartbeat comment while none come", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const stream = relayed();
    stream.push("event: progress\nid: 0\ndata: {}\n\n");
    expect(await stream.read()).toBe("event: progress\nid: 0\ndata: {}\n\n");
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(await stream.read()).toBe(": heartbeat\n\n");
    stream.end();
    await stream.done;
    expect(await stream.read()).toBeUndefined();
  });

  it("never puts a heartbeat inside an event cut in two", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const stream = relayed();
    stream.push("event: item\nid: 1\nda");
    expect(await stream.read()).toBe("event: item\nid: 1\nda");
    vi.advanceTimersByTime(HEARTBEAT_MS);
    stream.push('ta: {"index":0}\n\n');
    expect(await stream.read()).toBe('ta: {"index":0}\n\n');
    vi.advanceTimersByTime(HEARTBEAT_MS);
    expect(await stream.read()).toBe(": heartbeat\n\n");
    stream.end();
    await stream.done;
  });
});

describe("relay with a renewal", () => {
  it("ends the stream, sending nothing more, at the first renewal refused", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const { readable: source, writable: sink } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = sink.getWriter();
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const sse = new SSEStreamingApi(writable, readable);
    let allowed = true;
    const done = relay(source, sse, { everyMs: 1000, stalledMs: 5000, renew: async () => allowed }).then(() =>
      sse.close(),
    );
    const reader = sse.responseReadable.pipeThrough(new TextDecoderStream()).getReader();
    void writer.write(encoder.encode("event: progress\nid: 0\ndata: {}\n\n"));
    expect((await reader.read()).value).toBe("event: progress\nid: 0\ndata: {}\n\n");
    await vi.advanceTimersByTimeAsync(1000);
    allowed = false;
    await vi.advanceTimersByTimeAsync(1000);
    await done;
    void writer.write(encoder.encode("event: item\nid: 1\ndata: {}\n\n")).catch(() => {});
    expect((await reader.read()).done).toBe(true);
  });
});

describe("relay with a client that takes nothing", () => {
  it("ends, stalled, once a write has waited stalledMs, without waiting for the client", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
    const { readable: source, writable: sink } = new TransformStream<Uint8Array, Uint8Array>();
    const writer = sink.getWriter();
    const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
    const sse = new SSEStreamingApi(writable, readable);
    const done = relay(source, sse, { everyMs: 1000, stalledMs: 5000, renew: async () => true });
    // Nobody reads the response: once its buffers are full, the relay's next write waits.
    for (let id = 1; id <= 4; id++)
      writer.write(encoder.encode(`event: item\nid: ${id}\ndata: {}\n\n`)).catch(() => {});
    await vi.advanceTimersByTimeAsync(6000);
    expect(await done).toBe("stalled");
  });
});
