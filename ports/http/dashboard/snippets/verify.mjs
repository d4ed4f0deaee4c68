// Verify a creatorapi webhook in Node.js (node:crypto, no npm package needed).
// WEBHOOK_SECRET=whsec_... X_SVC_SIGNATURE='t=...,v1=...' node verify.mjs < body.json
import { createHmac, timingSafeEqual } from "node:crypto";

// HMAC-SHA256 of "<t>.<body>" keyed with the whole secret; any v1 may match (two during
// a rotation); t at most 5 minutes old. body is the raw Buffer, not re-serialised JSON.
export function verify(secret, header, body, nowSeconds) {
  let ts = "";
  const sigs = [];
  for (const part of header.split(",")) {
    const [k, v] = part.trim().split("=", 2);
    if (k === "t") ts = v;
    else if (k === "v1") sigs.push(v);
  }
  if (!/^\d+$/.test(ts) || Math.abs(nowSeconds - Number(ts)) > 300) return false;
  const want = Buffer.from(createHmac("sha256", secret).update(ts + ".").update(body).digest("hex"));
  return sigs.some((s) => s.length === want.length && timingSafeEqual(Buffer.from(s), want));
}

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const ok = verify(process.env.WEBHOOK_SECRET, process.env.X_SVC_SIGNATURE, Buffer.concat(chunks), Date.now() / 1000);
console.log(ok ? "valid" : "invalid");
process.exit(ok ? 0 : 1);
