// The transport's chores, against a scripted fetch: no service needed.
import assert from "node:assert/strict";
import { test } from "node:test";
import { PacedTransport, type AttemptInfo } from "../transport.js";

function scripted(answers: Array<Response | Error>) {
  const seen: Request[] = [];
  const fetch = async (r: Request) => {
    seen.push(r);
    const a = answers.shift();
    if (!a) throw new Error("no more answers");
    if (a instanceof Error) throw a;
    return a;
  };
  return { seen, fetch };
}

const post = () => new Request("http://api.test/api/v1/students/batch", { method: "POST", body: '{"items":[]}', headers: { "Content-Type": "application/json" } });

test("a POST's retries (network error, 5xx, 429) reuse one Idempotency-Key; the next call gets a new one", async () => {
  const waits: number[] = [];
  const s = scripted([new TypeError("fetch failed"), new Response("", { status: 502 }), new Response("", { status: 429, headers: { "Retry-After": "2" } }), new Response("{}", { status: 200 }), new Response("{}", { status: 200 })]);
  const t = new PacedTransport({ fetch: s.fetch, sleep: async (ms) => void waits.push(ms), baseDelayMs: 100 });
  const res = await t.send(post());
  assert.equal(res.status, 200);
  assert.equal(s.seen.length, 4);
  const keys = new Set(s.seen.map((r) => r.headers.get("Idempotency-Key")));
  assert.equal(keys.size, 1);
  assert.ok([...keys][0]);
  assert.equal(await s.seen[3]!.text(), '{"items":[]}', "the body is sent again on a retry");
  assert.equal(waits[2], 2000, "Retry-After is honoured");
  assert.ok(waits[0]! <= 100 && waits[1]! <= 200, `jittered exponential backoff: ${waits}`);
  await t.send(post());
  assert.notEqual(s.seen[4]!.headers.get("Idempotency-Key"), s.seen[0]!.headers.get("Idempotency-Key"));
});

test("a key the caller set is kept; a GET gets none; a 4xx is not retried", async () => {
  const s = scripted([new Response("", { status: 200 }), new Response("", { status: 422 })]);
  const t = new PacedTransport({ fetch: s.fetch, sleep: async () => {} });
  const r = post();
  r.headers.set("Idempotency-Key", "mine");
  await t.send(r);
  assert.equal(s.seen[0]!.headers.get("Idempotency-Key"), "mine");
  const res = await t.send(new Request("http://api.test/api/v1/students"));
  assert.equal(res.status, 422);
  assert.equal(s.seen.length, 2);
  assert.equal(s.seen[1]!.headers.get("Idempotency-Key"), null);
});

test("gives up after `attempts` tries: the last answer, or the last error", async () => {
  const attempts: AttemptInfo[] = [];
  const s = scripted([new Response("", { status: 503 }), new Response("", { status: 503 }), new Response("", { status: 503 })]);
  const t = new PacedTransport({ fetch: s.fetch, sleep: async () => {}, attempts: 3, onAttempt: (a) => attempts.push(a) });
  assert.equal((await t.send(post())).status, 503);
  assert.deepEqual(attempts.map((a) => a.attempt), [1, 2, 3]);
  const e = scripted([new Error("down"), new Error("still down")]);
  const t2 = new PacedTransport({ fetch: e.fetch, sleep: async () => {}, attempts: 2 });
  await assert.rejects(t2.send(post()), /still down/);
});

test("paces: under 5 remaining it waits for X-RateLimit-Reset before the next request", async () => {
  const waits: number[] = [];
  const reset = Math.floor(Date.now() / 1000) + 30;
  const s = scripted([new Response("", { status: 200, headers: { "X-RateLimit-Remaining": "4", "X-RateLimit-Reset": String(reset) } }), new Response("", { status: 200, headers: { "X-RateLimit-Remaining": "59", "X-RateLimit-Reset": String(reset) } }), new Response("", { status: 200 })]);
  const t = new PacedTransport({ fetch: s.fetch, sleep: async (ms) => void waits.push(ms) });
  await t.send(new Request("http://api.test/a"));
  assert.equal(t.rateLimit.remaining, 4);
  await t.send(new Request("http://api.test/b"));
  assert.equal(waits.length, 1);
  assert.ok(waits[0]! > 25_000 && waits[0]! <= 30_000, `waited ${waits[0]} ms`);
  await t.send(new Request("http://api.test/c"));
  assert.equal(waits.length, 1, "no wait with 59 remaining");
});

test("a try that outlasts timeoutMs is aborted and retried", async () => {
  let calls = 0;
  const fetch = (r: Request) =>
    new Promise<Response>((resolve, reject) => {
      calls++;
      if (calls === 1) r.signal.addEventListener("abort", () => reject(r.signal.reason));
      else resolve(new Response("ok"));
    });
  const t = new PacedTransport({ fetch, timeoutMs: 50, sleep: async () => {} });
  const alive = setInterval(() => {}, 1000); // AbortSignal.timeout's timer does not hold the loop open
  const res = await t.send(new Request("http://api.test/slow")).finally(() => clearInterval(alive));
  assert.equal(await res.text(), "ok");
  assert.equal(calls, 2);
});
