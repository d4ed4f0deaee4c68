// What the Go test that started the built binary passes in, and the operator API
// calls that set up data (the public API has no endpoints to create courses or orders).
import assert from "node:assert/strict";

function need(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run these suites through go test ./tests -run TestIntegratorKit`);
  return v;
}

export const baseUrl = need("CREATORAPI_BASE_URL");
export const adminUrl = need("CREATORAPI_ADMIN_URL");
export const adminToken = need("CREATORAPI_ADMIN_TOKEN");
export const documentPath = need("CREATORAPI_OPENAPI_YAML");

export async function admin<T = any>(method: string, path: string, body?: unknown, want = [200, 201]): Promise<T> {
  const res = await fetch(adminUrl + "/internal/v1" + path, {
    method,
    headers: { Authorization: `Bearer ${adminToken}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  assert.ok(want.includes(res.status), `${method} ${path}: ${res.status} ${text}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

export const allScopes = ["read:courses", "read:students", "write:students", "read:orders", "write:enrollments", "read:analytics", "read:events"];

export interface Workspace {
  id: string;
  w: (path: string) => string;
}

export async function workspace(name: string): Promise<Workspace> {
  const ws = await admin<{ id: string }>("POST", "/workspaces", { name, ownerEmail: "owner@example.com" });
  return { id: ws.id, w: (path) => `/workspaces/${ws.id}${path}` };
}

export async function key(ws: Workspace, scopes: string[], perMinute = 0, perDay = 0): Promise<string> {
  const k = await admin<{ secret: string }>("POST", ws.w("/keys"), { name: "integrator", scopes, perMinute, perDay });
  return k.secret;
}

// publishedCourse creates a course with one module of two lessons and publishes it.
export async function publishedCourse(ws: Workspace, title: string): Promise<{ id: string; lessons: string[] }> {
  const c = await admin<{ id: string }>("POST", ws.w("/courses"), { title });
  const m = await admin<{ id: string }>("POST", ws.w(`/courses/${c.id}/modules`), { title: "Basics" });
  const lessons: string[] = [];
  for (const t of ["Welcome", "First steps"]) {
    const l = await admin<{ id: string }>("POST", ws.w(`/modules/${m.id}/lessons`), { title: t, type: "video", durationSeconds: 120 });
    lessons.push(l.id);
  }
  await admin("POST", ws.w(`/courses/${c.id}/publish`));
  return { id: c.id, lessons };
}
