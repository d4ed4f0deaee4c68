// Every endpoint through a client no one here wrote: types generated from the OpenAPI
// document by openapi-typescript, requests sent by openapi-fetch, against the built
// binary. A field renamed in the server breaks these assertions (and the build, where
// the generated types no longer have it).
import { test } from "node:test";
import assert from "node:assert/strict";
import createClient from "openapi-fetch";
import type { paths, components } from "./generated/api.js";
import { admin, allScopes, baseUrl, key, publishedCourse, workspace } from "./env.js";

type Course = components["schemas"]["Course"];
type Student = components["schemas"]["Student"];

function client(secret?: string) {
  return createClient<paths>({ baseUrl, headers: secret ? { Authorization: `Bearer ${secret}` } : {} });
}

function assertError(error: unknown, code: string): components["schemas"]["Error"] {
  const env = error as { error?: { code?: string; message?: string } };
  assert.equal(env?.error?.code, code, `want error.code ${code}, got ${JSON.stringify(error)}`);
  assert.ok(typeof env.error?.message === "string" && env.error.message.length > 0);
  return error as components["schemas"]["Error"];
}

test("the document is served without a key", async () => {
  const { data, response } = await client().GET("/api/v1/openapi.json");
  assert.equal(response.status, 200);
  assert.equal(data?.openapi, "3.1.0");
});

test("every endpoint, end to end", async (t) => {
  const ws = await workspace("Integrators");
  const secret = await key(ws, allScopes);
  const api = client(secret);
  const courses: string[] = [];
  for (let i = 0; i < 12; i++) courses.push((await publishedCourse(ws, `Course ${i}`)).id);
  const first = courses[0]!;

  await t.test("courses: list pagination to the end", async () => {
    const seen: Course[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < 10; page++) {
      const { data, error, response } = await api.GET("/api/v1/courses", { params: { query: { limit: 5, cursor } } });
      assert.equal(response.status, 200, JSON.stringify(error));
      assert.ok(data);
      assert.equal(response.headers.get("X-RateLimit-Limit"), "60");
      assert.ok(response.headers.get("X-Request-Id"));
      seen.push(...data.data);
      if (!data.pagination.has_more) {
        assert.equal(data.pagination.cursor, null);
        break;
      }
      cursor = data.pagination.cursor ?? undefined;
      assert.ok(cursor);
    }
    assert.equal(seen.length, courses.length);
    assert.deepEqual(new Set(seen.map((c) => c.id)), new Set(courses));
    for (const c of seen) {
      assert.equal(c.status, "published");
      assert.ok(c.slug.length > 0 && c.title.startsWith("Course "));
      assert.equal(c.moduleCount, 1);
      assert.equal(c.lessonCount, 2);
    }
  });

  await t.test("courses: fetch one with its curriculum", async () => {
    const { data, response } = await api.GET("/api/v1/courses/{id}", { params: { path: { id: first } } });
    assert.equal(response.status, 200);
    assert.equal(data?.id, first);
    assert.equal(data?.modules.length, 1);
    assert.deepEqual(data?.modules[0]?.lessons.map((l) => l.title), ["Welcome", "First steps"]);
  });

  await t.test("courses: 404 for an id not in the workspace", async () => {
    const { error, response } = await api.GET("/api/v1/courses/{id}", { params: { path: { id: "crs_nope" } } });
    assert.equal(response.status, 404);
    assertError(error, "not_found");
  });

  let student: Student | undefined;
  await t.test("students: create (201), the same address again (200)", async () => {
    const body = { email: "ada@example.com", firstName: "Ada", lastName: "Lovelace", externalId: "crm-1", metadata: { plan: "pro" } };
    const created = await api.POST("/api/v1/students", { body });
    assert.equal(created.response.status, 201, JSON.stringify(created.error));
    const data = created.data;
    assert.ok(data && "email" in data, "a new student comes back whole (an existing one may be its id only)");
    student = data;
    assert.ok(student.id.startsWith("stu_"));
    assert.equal(student?.firstName, "Ada");
    assert.deepEqual(student?.metadata, { plan: "pro" });
    const again = await api.POST("/api/v1/students", { body: { email: "ADA@example.com" } });
    assert.equal(again.response.status, 200);
    assert.equal(again.data?.id, student?.id);
  });

  await t.test("enrollments: enroll (201), again (200)", async () => {
    assert.ok(student);
    const body = { studentId: student.id, courseId: first };
    const created = await api.POST("/api/v1/enrollments", { body });
    assert.equal(created.response.status, 201, JSON.stringify(created.error));
    assert.equal(created.data?.status, "active");
    assert.equal(created.data?.source, "api");
    const again = await api.POST("/api/v1/enrollments", { body });
    assert.equal(again.response.status, 200);
    assert.equal(again.data?.id, created.data?.id);
  });

  await t.test("students: list with the enrollment and filters", async () => {
    for (let i = 0; i < 6; i++) await api.POST("/api/v1/students", { body: { email: `lead${i}@example.com` } });
    const seen: Student[] = [];
    let cursor: string | undefined;
    do {
      const { data, response } = await api.GET("/api/v1/students", { params: { query: { limit: 3, cursor } } });
      assert.equal(response.status, 200);
      seen.push(...data!.data);
      cursor = data!.pagination.cursor ?? undefined;
    } while (cursor);
    assert.equal(seen.length, 7);
    const ada = seen.find((s) => s.email === "ada@example.com");
    assert.equal(ada?.enrollments.length, 1);
    assert.deepEqual(ada?.enrollments[0]?.progress, { completedLessons: 0, totalLessons: 2, percent: 0 });
    const byEmail = await api.GET("/api/v1/students", { params: { query: { email: "ada@example.com", updatedSince: "2020-01-01T00:00:00Z" } } });
    assert.deepEqual(byEmail.data?.data.map((s) => s.id), [ada?.id]);
  });

  await t.test("orders: list with filters", async () => {
    assert.ok(student);
    const order = await admin<{ id: string }>("POST", ws.w("/orders"), { studentId: student.id, currency: "usd", items: [{ courseId: courses[1], amount: 4900 }] });
    await admin("POST", ws.w(`/orders/${order.id}/refunds`), { amount: 900 });
    const { data, response } = await api.GET("/api/v1/orders", { params: { query: { status: "partially_refunded", studentId: student.id, createdSince: "2020-01-01T00:00:00Z" } } });
    assert.equal(response.status, 200);
    assert.equal(data?.data.length, 1);
    const o = data!.data[0]!;
    assert.equal(o.id, order.id);
    assert.equal(o.amount, 4900);
    assert.equal(o.amountRefunded, 900);
    assert.deepEqual(o.history.map((h) => h.type), ["paid", "refunded"]);
    assert.ok(o.receipt.number.length > 0);
    const none = await api.GET("/api/v1/orders", { params: { query: { status: "refunded" } } });
    assert.deepEqual(none.data?.data, []);
  });

  await t.test("analytics: summary", async () => {
    const { data, response } = await api.GET("/api/v1/analytics/summary", {});
    assert.equal(response.status, 200);
    assert.ok(data?.window.from && data.window.to);
    assert.ok(typeof data?.completionRate === "number");
  });

  await t.test("422 names the parameter", async () => {
    const { error, response } = await api.GET("/api/v1/courses", { params: { query: { limit: 0 } } });
    assert.equal(response.status, 422);
    const e = assertError(error, "invalid_request");
    assert.equal((e as { error: { param?: string } }).error.param, "limit");
    const bad = await api.POST("/api/v1/students", { body: { email: "" } });
    assert.equal(bad.response.status, 422);
    assertError(bad.error, "invalid_request");
  });

  await t.test("403 without the scope", async () => {
    const readOnly = client(await key(ws, ["read:courses"]));
    const { error, response } = await readOnly.GET("/api/v1/students", {});
    assert.equal(response.status, 403);
    assertError(error, "forbidden");
  });

  await t.test("401 without a key", async () => {
    const { error, response } = await client().GET("/api/v1/courses", {});
    assert.equal(response.status, 401);
    assertError(error, "unauthorized");
  });

  await t.test("429 with retryAfterSeconds", async () => {
    const limited = client(await key(ws, ["read:courses"], 2, 100));
    for (let i = 0; i < 2; i++) assert.equal((await limited.GET("/api/v1/courses", {})).response.status, 200);
    const { error, response } = await limited.GET("/api/v1/courses", {});
    assert.equal(response.status, 429);
    const e = assertError(error, "rate_limited") as components["schemas"]["RateLimitedError"];
    assert.ok(Number.isInteger(e.error.retryAfterSeconds) && e.error.retryAfterSeconds >= 1 && e.error.retryAfterSeconds <= 60);
    assert.equal(response.headers.get("Retry-After"), String(e.error.retryAfterSeconds));
    assert.equal(response.headers.get("X-RateLimit-Remaining"), "0");
  });
});
