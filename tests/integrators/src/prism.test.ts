// A third-party validator judges the traffic: Stoplight Prism in validation-proxy mode
// with --errors sits between this client and the built binary and checks every request
// and response against the OpenAPI document. A violation becomes an error answer (or
// an sl-violations header for warnings); either fails this suite.
import { test, after, before } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { admin, allScopes, baseUrl, documentPath, key, publishedCourse, workspace } from "./env.js";

let prism: ChildProcess;
let prismUrl = "";
const prismLog: string[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, "127.0.0.1", () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === "object" && addr ? resolve(addr.port) : reject(new Error("no port"))));
    });
  });
}

before(async () => {
  const port = await freePort();
  prismUrl = `http://127.0.0.1:${port}`;
  prism = spawn("node_modules/.bin/prism", ["proxy", documentPath, baseUrl, "--errors", "-p", String(port), "-h", "127.0.0.1"], { stdio: ["ignore", "pipe", "pipe"] });
  prism.stdout?.on("data", (b) => prismLog.push(String(b)));
  prism.stderr?.on("data", (b) => prismLog.push(String(b)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    try {
      await fetch(prismUrl + "/api/v1/openapi.json");
      return;
    } catch {
      if (Date.now() > deadline) throw new Error("Prism did not start:\n" + prismLog.join(""));
      await new Promise((r) => setTimeout(r, 200));
    }
  }
});

after(() => {
  prism?.kill();
});

interface Exchange {
  method: string;
  path: string;
  secret?: string;
  body?: unknown;
  want: number;
  idempotencyKey?: string;
}

async function through(x: Exchange): Promise<any> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (x.secret) headers.Authorization = `Bearer ${x.secret}`;
  if (x.body !== undefined) headers["Content-Type"] = "application/json";
  if (x.idempotencyKey !== undefined) headers["Idempotency-Key"] = x.idempotencyKey;
  const res = await fetch(prismUrl + x.path, { method: x.method, headers, body: x.body === undefined ? undefined : JSON.stringify(x.body) });
  const text = await res.text();
  const violations = res.headers.get("sl-violations");
  assert.equal(violations, null, `${x.method} ${x.path}: Prism reports violations: ${violations}`);
  assert.equal(res.status, x.want, `${x.method} ${x.path}: status ${res.status}, want ${x.want}: ${text}\n${prismLog.slice(-20).join("")}`);
  assert.ok(!/stoplight\.io\/prism\/errors/.test(text), `${x.method} ${x.path}: Prism error ${text}`);
  return text ? JSON.parse(text) : undefined;
}

test("every operation through Prism's validation proxy", async () => {
  const ws = await workspace("Prism");
  const secret = await key(ws, allScopes);
  const course = await publishedCourse(ws, "Judged by Prism");
  await publishedCourse(ws, "Second");
  await publishedCourse(ws, "Third");

  await through({ method: "GET", path: "/api/v1/openapi.json", want: 200 });
  let page = await through({ method: "GET", path: "/api/v1/courses?limit=2", secret, want: 200 });
  while (page.pagination.has_more) {
    page = await through({ method: "GET", path: `/api/v1/courses?limit=2&cursor=${encodeURIComponent(page.pagination.cursor)}`, secret, want: 200 });
  }
  await through({ method: "GET", path: `/api/v1/courses/${course.id}`, secret, want: 200 });
  await through({ method: "GET", path: "/api/v1/courses/crs_missing", secret, want: 404 });

  const student = await through({ method: "POST", path: "/api/v1/students", secret, body: { email: "prism@example.com", firstName: "P", metadata: { source: "prism" } }, want: 201 });
  await through({ method: "POST", path: "/api/v1/students", secret, body: { email: "prism@example.com" }, want: 200 });
  await through({ method: "GET", path: "/api/v1/students?limit=10&email=prism%40example.com", secret, want: 200 });
  await through({ method: "GET", path: "/api/v1/students?updatedSince=2020-01-01T00%3A00%3A00Z", secret, want: 200 });

  await through({ method: "POST", path: "/api/v1/enrollments", secret, body: { studentId: student.id, courseId: course.id }, want: 201 });
  await through({ method: "POST", path: "/api/v1/enrollments", secret, body: { studentId: student.id, courseId: course.id }, want: 200 });
  // Safe retries: the replay (with Idempotent-Replayed) and a reuse for another body.
  const replayed = { method: "POST", path: "/api/v1/students", secret, body: { email: "retry@example.com" }, idempotencyKey: "prism-1" };
  const firstTry = await through({ ...replayed, want: 201 });
  assert.deepEqual(await through({ ...replayed, want: 201 }), firstTry);
  await through({ ...replayed, body: { email: "other@example.com" }, want: 422 });
  // Valid by the document, refused by the service: a course that does not resolve is 422.
  await through({ method: "POST", path: "/api/v1/enrollments", secret, body: { studentId: student.id, courseId: "crs_missing" }, want: 422 });

  const order = await admin<{ id: string }>("POST", ws.w("/orders"), { studentId: student.id, currency: "eur", items: [{ courseId: course.id, amount: 1500 }] });
  await admin("POST", ws.w(`/orders/${order.id}/refunds`), {});
  await through({ method: "GET", path: "/api/v1/orders", secret, want: 200 });
  await through({ method: "GET", path: `/api/v1/orders?status=refunded&studentId=${student.id}&createdBefore=2099-01-01T00%3A00%3A00Z&updatedSince=2020-01-01T00%3A00%3A00Z`, secret, want: 200 });

  await through({ method: "GET", path: "/api/v1/analytics/summary", secret, want: 200 });
  await through({ method: "GET", path: "/api/v1/analytics/summary?from=2026-01-01&to=2026-01-31", secret, want: 200 });

  const narrow = await key(ws, ["read:courses"]);
  await through({ method: "GET", path: "/api/v1/orders", secret: narrow, want: 403 });
  const limited = await key(ws, ["read:analytics"], 1, 10);
  await through({ method: "GET", path: "/api/v1/analytics/summary", secret: limited, want: 200 });
  const limitedAnswer = await through({ method: "GET", path: "/api/v1/analytics/summary", secret: limited, want: 429 });
  assert.ok(limitedAnswer.error.retryAfterSeconds >= 1);
  await through({ method: "GET", path: "/api/v1/courses", secret: "svc_not_a_key", want: 401 });

});
