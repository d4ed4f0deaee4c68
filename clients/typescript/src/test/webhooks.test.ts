// The verifier, on both schemes: signatures made here with node:crypto from docs/webhooks.md,
// and (when the Go test passes one) a delivery signed by the service's own signer.
import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { verifySvcSignature, verifyStandardWebhook, verifyWebhook, WebhookSignatureError, isEventOfType } from "../index.js";

const secret = "whsec_" + randomBytes(32).toString("base64");
const body = JSON.stringify({ id: "evt_1", type: "order.paid", created_at: "2026-11-21T10:00:00Z", workspace_id: "org_1", data: { id: "ord_1", amount: 4900 } });
const now = 1_763_719_200;

function svc(s: string, t: number, b: string) {
  return `t=${t},v1=` + createHmac("sha256", s).update(`${t}.${b}`).digest("hex");
}
function standard(s: string, id: string, t: number, b: string) {
  const key = Buffer.from(s.slice("whsec_".length), "base64");
  return "v1," + createHmac("sha256", key).update(`${id}.${t}.${b}`).digest("base64");
}

test("X-SVC-Signature: accepts the right secret, refuses a tampered body, a wrong secret, an old timestamp", () => {
  const ev = verifySvcSignature(secret, { "X-SVC-Signature": svc(secret, now, body) }, body, { nowSeconds: now + 10 });
  assert.equal(ev.type, "order.paid");
  assert.ok(isEventOfType(ev, "order.paid") && ev.data.id === "ord_1");
  assert.throws(() => verifySvcSignature(secret, { "x-svc-signature": svc(secret, now, body) }, body + " ", { nowSeconds: now }), WebhookSignatureError);
  assert.throws(() => verifySvcSignature(secret, { "X-SVC-Signature": svc("whsec_other", now, body) }, body, { nowSeconds: now }), WebhookSignatureError);
  assert.throws(() => verifySvcSignature(secret, { "X-SVC-Signature": svc(secret, now, body) }, body, { nowSeconds: now + 301 }), /replay window/);
  // A rotation: two v1 values, either verifies.
  const two = svc("whsec_old", now, body) + "," + svc(secret, now, body).split(",")[1];
  assert.equal(verifySvcSignature(secret, { "X-SVC-Signature": two }, body, { nowSeconds: now }).id, "evt_1");
});

test("Standard Webhooks: accepts the right secret (either of two signatures), refuses tampering and old timestamps", () => {
  const h = new Headers({ "webhook-id": "evt_1", "webhook-timestamp": String(now), "webhook-signature": "v1,AAAA " + standard(secret, "evt_1", now, body) });
  assert.equal(verifyStandardWebhook(secret, h, body, { nowSeconds: now }).id, "evt_1");
  assert.equal(verifyWebhook(secret, h, Buffer.from(body), { nowSeconds: now }).id, "evt_1", "verifyWebhook falls back to Standard Webhooks");
  assert.throws(() => verifyStandardWebhook(secret, h, body.replace("4900", "1"), { nowSeconds: now }), WebhookSignatureError);
  h.set("webhook-id", "evt_2");
  assert.throws(() => verifyStandardWebhook(secret, h, body, { nowSeconds: now }), WebhookSignatureError);
  h.set("webhook-id", "evt_1");
  assert.throws(() => verifyStandardWebhook(secret, h, body, { nowSeconds: now - 400 }), /replay window/);
});

test("a delivery signed by the service's own signer verifies with both schemes", { skip: !process.env.CREATORAPI_WEBHOOK_FIXTURE }, () => {
  const f = JSON.parse(readFileSync(process.env.CREATORAPI_WEBHOOK_FIXTURE!, "utf8")) as { secret: string; headers: Record<string, string>; body: string; now: number };
  assert.equal(verifySvcSignature(f.secret, f.headers, f.body, { nowSeconds: f.now }).type, "order.paid");
  assert.equal(verifyStandardWebhook(f.secret, f.headers, f.body, { nowSeconds: f.now }).id, "evt_fixture");
  assert.throws(() => verifyStandardWebhook("whsec_" + randomBytes(32).toString("base64"), f.headers, f.body, { nowSeconds: f.now }), WebhookSignatureError);
});
