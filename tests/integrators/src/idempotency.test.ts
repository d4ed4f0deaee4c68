// Safe retries end to end against the built binary: the kit's retryingFetch sends a fresh
// Idempotency-Key per call and the same one on its retries, so a lost answer is answered
// again (Idempotent-Replayed: true) and the student exists once.
import { test } from "node:test";
import assert from "node:assert/strict";
import createClient from "openapi-fetch";
import type { paths } from "./generated/api.js";
import { baseUrl, key, workspace } from "./env.js";
import { idempotencyKeyHeader, retryingFetch, type Transport } from "./retrying-fetch.js";

interface Try {
  key: string | null;
  status?: number;
  replayed?: string | null;
}

// recording sends each try to the server and notes its key; lose says which tries lose
// their answer on the way back (the server has answered: only the client never knows).
function recording(lose: (n: number) => boolean): { transport: Transport; tries: Try[] } {
  const tries: Try[] = [];
  const transport: Transport = async (req) => {
    const t: Try = { key: req.headers.get(idempotencyKeyHeader) };
    tries.push(t);
    const res = await fetch(req);
    t.status = res.status;
    t.replayed = res.headers.get("Idempotent-Replayed");
    if (lose(tries.length)) {
      await res.body?.cancel();
      throw new TypeError("fetch failed: connection reset (simulated)");
    }
    return res;
  };
  return { transport, tries };
}

test("a lost answer is retried with the same key and replayed, not created twice", async () => {
  const ws = await workspace("Retries");
  const secret = await key(ws, ["read:students", "write:students"]);
  const { transport, tries } = recording((n) => n === 1);
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${secret}` }, fetch: retryingFetch({ transport, baseDelayMs: 10 }) });

  const created = await api.POST("/api/v1/students", { body: { email: "lost@example.com", firstName: "Lost" } });
  assert.equal(created.response.status, 201, JSON.stringify(created.error));
  assert.equal(tries.length, 2);
  assert.ok(tries[0]!.key && tries[0]!.key.length <= 255);
  assert.equal(tries[1]!.key, tries[0]!.key, "the retry sends the first try's key");
  assert.deepEqual([tries[0]!.status, tries[0]!.replayed], [201, null], "the first try created the student");
  assert.equal(created.response.headers.get("Idempotent-Replayed"), "true");

  const list = await api.GET("/api/v1/students", { params: { query: { email: "lost@example.com" } } });
  assert.equal(list.data?.data.length, 1);
  assert.equal(list.data?.data[0]?.id, created.data?.id);

  // The next logical call gets a key of its own: it runs (here: the existing student, 200).
  const next = await api.POST("/api/v1/students", { body: { email: "lost@example.com", firstName: "Lost" } });
  assert.equal(next.response.status, 200);
  assert.notEqual(tries[2]!.key, tries[0]!.key);
  assert.equal(next.response.headers.get("Idempotent-Replayed"), null);
});

test("a 5xx is retried with the same key; other methods get no key", async () => {
  const ws = await workspace("Retries 5xx");
  const secret = await key(ws, ["read:students", "write:students"]);
  const keys: (string | null)[] = [];
  const transport: Transport = async (req) => {
    keys.push(req.headers.get(idempotencyKeyHeader));
    if (keys.length === 1) return new Response(JSON.stringify({ error: { code: "internal_error", message: "simulated" } }), { status: 503 });
    return fetch(req);
  };
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${secret}` }, fetch: retryingFetch({ transport, baseDelayMs: 10 }) });
  const created = await api.POST("/api/v1/students", { body: { email: "flaky@example.com" } });
  assert.equal(created.response.status, 201);
  assert.equal(keys.length, 2);
  assert.ok(keys[0]);
  assert.equal(keys[1], keys[0]);
  await api.GET("/api/v1/students", {});
  assert.equal(keys[2], null);
});

test("a key reused for another request is 422 naming the header", async () => {
  const ws = await workspace("Reuse");
  const secret = await key(ws, ["write:students"]);
  const api = createClient<paths>({ baseUrl, headers: { Authorization: `Bearer ${secret}` } });
  const header = { "Idempotency-Key": "order-form-1" };
  const first = await api.POST("/api/v1/students", { params: { header }, body: { email: "a@example.com" } });
  assert.equal(first.response.status, 201);
  const again = await api.POST("/api/v1/students", { params: { header }, body: { email: "a@example.com" } });
  assert.equal(again.response.status, 201);
  assert.equal(again.response.headers.get("Idempotent-Replayed"), "true");
  assert.deepEqual(again.data, first.data);
  const other = await api.POST("/api/v1/students", { params: { header }, body: { email: "b@example.com" } });
  assert.equal(other.response.status, 422);
  const e = other.error as { error: { code: string; param?: string } };
  assert.equal(e.error.code, "invalid_request");
  assert.equal(e.error.param, "Idempotency-Key");
});
