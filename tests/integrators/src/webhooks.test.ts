// Real deliveries from the built binary, one of each of the 13 types, verified by three
// receivers: the Standard Webhooks reference library (standardwebhooks), Svix's
// verifier (svix), both from the webhook-* headers, and a receiver written from the
// specification's words (X-SVC-Signature, with its 300-second replay window).
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { Webhook as SvixWebhook } from "svix";
import { admin, allScopes, baseUrl, key, publishedCourse, workspace } from "./env.js";
import { SignatureError, verifySvcSignature } from "./svc-signature.js";

interface Delivery {
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const received: Delivery[] = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on("data", (c: Buffer) => chunks.push(c));
  req.on("end", () => {
    received.push({ headers: req.headers, body: Buffer.concat(chunks) });
    res.writeHead(204).end();
  });
});
after(() => server.close());

const types = [
  "student.created", "student.updated", "student.deleted", "enrollment.created", "enrollment.revoked",
  "order.paid", "order.refunded", "course.published", "course.archived",
  "live_session.started", "live_session.ended", "recording.ready", "certificate.issued",
];

function webhookHeaders(d: Delivery): Record<string, string> {
  const h = (name: string) => {
    const v = d.headers[name];
    assert.ok(typeof v === "string" && v.length > 0, `delivery lacks ${name}`);
    return v;
  };
  return { "webhook-id": h("webhook-id"), "webhook-timestamp": h("webhook-timestamp"), "webhook-signature": h("webhook-signature") };
}

// produceEveryType records one change of each kind that emits a public event.
async function produceEveryType(ws: Awaited<ReturnType<typeof workspace>>) {
  const secret = await key(ws, allScopes);
  const api = (path: string, body: unknown) =>
    fetch(baseUrl + path, { method: "POST", headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" }, body: JSON.stringify(body) })
      .then(async (r) => {
        const text = await r.text();
        assert.ok(r.ok, `${path}: ${r.status} ${text}`);
        return JSON.parse(text);
      });
  const course = await publishedCourse(ws, "Watercolor"); // course.published
  const paid = await publishedCourse(ws, "Oil"); // course.published
  const student = await api("/api/v1/students", { email: "hook@example.com" }); // student.created
  await admin("PATCH", ws.w(`/students/${student.id}`), { firstName: "Hook" }); // student.updated
  const gone = await api("/api/v1/students", { email: "gone@example.com" }); // student.created
  await admin("DELETE", ws.w(`/students/${gone.id}`), undefined, [200, 204]); // student.deleted
  const enrollment = await api("/api/v1/enrollments", { studentId: student.id, courseId: course.id }); // enrollment.created
  await admin("POST", ws.w(`/enrollments/${enrollment.id}/revoke`)); // enrollment.revoked
  const order = await admin("POST", ws.w("/orders"), { studentId: student.id, currency: "usd", items: [{ courseId: paid.id, amount: 4900 }] }); // order.paid
  await admin("POST", ws.w(`/orders/${order.id}/refunds`), {}); // order.refunded
  const session = await admin("POST", ws.w("/live-sessions"), { courseId: course.id, title: "Live" });
  await admin("POST", ws.w(`/live-sessions/${session.id}/start`)); // live_session.started
  await admin("POST", ws.w(`/live-sessions/${session.id}/end`)); // live_session.ended
  await admin("POST", ws.w("/recordings"), { liveSessionId: session.id, durationSeconds: 60 }); // recording.ready
  await api("/api/v1/enrollments", { studentId: student.id, courseId: course.id }); // reactivated
  for (const lesson of course.lessons) await admin("POST", ws.w("/progress"), { studentId: student.id, lessonId: lesson });
  await admin("POST", ws.w("/certificates"), { studentId: student.id, courseId: course.id }); // certificate.issued
  await admin("POST", ws.w(`/courses/${course.id}/archive`)); // course.archived
}

test("three independent verifiers accept every type of delivery", async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  assert.ok(addr && typeof addr === "object");
  const ws = await workspace("Receivers");
  const hook = await admin<{ id: string; signingSecret: string }>("POST", ws.w("/webhooks"), { url: `http://127.0.0.1:${addr.port}/hook`, events: types });
  assert.match(hook.signingSecret, /^whsec_/);
  await produceEveryType(ws);

  const deadline = Date.now() + 60_000;
  while (new Set(received.map((d) => d.headers["x-svc-event"])).size < types.length) {
    assert.ok(Date.now() < deadline, `after 60 s got only ${received.map((d) => d.headers["x-svc-event"]).join(", ")}`);
    await new Promise((r) => setTimeout(r, 100));
  }

  const standard = new StandardWebhook(hook.signingSecret);
  const svix = new SvixWebhook(hook.signingSecret);
  const wrongSecret = new StandardWebhook("whsec_" + Buffer.alloc(32, 7).toString("base64"));
  for (const d of received) {
    const body = d.body.toString("utf8");
    const event = JSON.parse(body);
    const headers = webhookHeaders(d);
    const svc = d.headers["x-svc-signature"] as string;
    const now = Math.floor(Date.now() / 1000);

    // The Standard Webhooks reference library and Svix's verifier, unchanged.
    assert.deepEqual(standard.verify(body, headers), event, `standardwebhooks refused ${event.type}`);
    assert.doesNotThrow(() => svix.verify(body, headers), `svix refused ${event.type}`); // svix 2 returns nothing, throws on failure
    // The receiver from the specification's words.
    assert.deepEqual(verifySvcSignature(hook.signingSecret, svc, d.body, now), event);

    assert.equal(headers["webhook-id"], event.id);
    assert.equal(d.headers["x-svc-event"], event.type);
    assert.match(String(d.headers["x-svc-delivery"]), /^evd_/);
    assert.equal(d.headers["content-type"], "application/json");
    assert.equal(event.workspace_id, ws.id);

    // Each of them refuses a tampered body and a wrong secret.
    const tampered = Buffer.from(body.replace(event.id, event.id + "x"));
    assert.throws(() => standard.verify(tampered.toString(), headers));
    assert.throws(() => svix.verify(tampered.toString(), headers));
    assert.throws(() => verifySvcSignature(hook.signingSecret, svc, tampered, now), SignatureError);
    assert.throws(() => wrongSecret.verify(body, headers));
    assert.throws(() => verifySvcSignature(hook.signingSecret.replace(/.$/, "A"), svc, d.body, now), SignatureError);

    // The 300-second replay window, on the delivery's own timestamp.
    const t = Number(/t=([0-9]+)/.exec(svc)?.[1]);
    assert.equal(String(t), headers["webhook-timestamp"]);
    assert.ok(Math.abs(now - t) <= 300, "delivered outside the replay window");
    verifySvcSignature(hook.signingSecret, svc, d.body, t + 300);
    verifySvcSignature(hook.signingSecret, svc, d.body, t - 300);
    assert.throws(() => verifySvcSignature(hook.signingSecret, svc, d.body, t + 301), /replay window/);
    assert.throws(() => verifySvcSignature(hook.signingSecret, svc, d.body, t - 301), /replay window/);
  }
  assert.deepEqual(new Set(received.map((d) => JSON.parse(d.body.toString()).type)), new Set(types));
});
