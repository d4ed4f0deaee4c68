// The client against the running service (started by go test ./tests -run TestTypeScriptClient,
// which passes CREATORAPI_BASE_URL and a key with every scope in CREATORAPI_API_KEY).
import assert from "node:assert/strict";
import { test } from "node:test";
import { ApiError, createCreatorClient } from "../index.js";

const baseUrl = process.env.CREATORAPI_BASE_URL;
const apiKey = process.env.CREATORAPI_API_KEY;
const run = !!baseUrl && !!apiKey;

test("batch upsert, auto-pagination, GET and PATCH of one student, errors as ApiError", { skip: !run && "CREATORAPI_BASE_URL/CREATORAPI_API_KEY unset: run through go test ./tests -run TestTypeScriptClient" }, async () => {
  const attempts: string[] = [];
  const c = createCreatorClient({ baseUrl: baseUrl!, apiKey: apiKey!, onAttempt: (a) => attempts.push(`${a.method} ${a.status}`) });
  const items = Array.from({ length: 5 }, (_, i) => ({ email: `ts${i}@example.com`, firstName: `T${i}`, externalId: `crm-ts-${i}` }));
  const results = await c.students.upsert(items);
  assert.deepEqual(results.map((r) => r.status), ["created", "created", "created", "created", "created"]);
  assert.deepEqual(results.map((r) => r.index), [0, 1, 2, 3, 4]);
  const again = await c.students.upsert(items);
  assert.ok(again.every((r) => r.status === "unchanged"), "the same batch again changes nothing");

  const seen: string[] = [];
  for await (const s of c.students.all({ limit: 2 })) seen.push(s.email);
  assert.equal(seen.length, 5, "three pages of 2, 2 and 1");
  assert.equal(new Set(seen).size, 5);
  assert.equal(attempts.filter((a) => a.startsWith("GET")).length, 3);

  const byExternal = [];
  for await (const s of c.students.all({ externalId: "crm-ts-3" })) byExternal.push(s);
  assert.equal(byExternal.length, 1);
  const id = byExternal[0]!.id;
  const patched = c.must(await c.api.PATCH("/api/v1/students/{id}", { params: { path: { id } }, body: { lastName: "Lovelace", metadata: { plan: "pro" } } }));
  assert.equal(patched.id, id);
  const got = c.must(await c.api.GET("/api/v1/students/{id}", { params: { path: { id } } }));
  assert.deepEqual([got.lastName, got.metadata], ["Lovelace", { plan: "pro" }]);

  const missing = await c.api.GET("/api/v1/students/{id}", { params: { path: { id: "stu_00000000000000000000000000" } } });
  assert.equal(missing.response.status, 404);
  assert.throws(() => c.must(missing), (e: unknown) => e instanceof ApiError && e.status === 404 && !!e.requestId);

  assert.equal(c.rateLimit.limit, 60, "the key's default limits, read from the headers");
  assert.equal(c.rateLimit.dailyLimit, 1000);
  assert.ok((c.rateLimit.remaining ?? 0) > 0);
});
