// A receiver written from the specification's own words, with nothing but node:crypto:
//
//   X-SVC-Signature: t=<unix_seconds>,v1=<hex_hmac>
//   1. Signed string: <t>.<raw request body> (t as in the header, then a dot, then the exact bytes).
//   2. Algorithm: HMAC-SHA256 with the subscription's signing secret; v1 is the lowercase hex digest.
//   3. Receivers should compare in constant time and verify against the raw bytes before parsing JSON.
//   4. Recommended replay window: reject when |now - t| exceeds 300 seconds.
import { createHmac, timingSafeEqual } from "node:crypto";

export const replayWindowSeconds = 300;

export class SignatureError extends Error {}

// verifySvcSignature returns the parsed event when the header signs rawBody with secret
// and t is within the replay window of nowSeconds; it throws SignatureError otherwise.
export function verifySvcSignature(secret: string, header: string | undefined, rawBody: Buffer, nowSeconds: number): unknown {
  if (!header) throw new SignatureError("missing X-SVC-Signature");
  let t: string | undefined;
  const candidates: string[] = [];
  for (const part of header.split(",")) {
    const [k, v] = part.split("=", 2) as [string, string | undefined];
    if (k === "t" && v !== undefined) t = v;
    if (k === "v1" && v !== undefined) candidates.push(v);
  }
  if (!t || !/^[0-9]+$/.test(t) || candidates.length === 0) throw new SignatureError("malformed X-SVC-Signature");
  if (Math.abs(nowSeconds - Number(t)) > replayWindowSeconds) throw new SignatureError("timestamp outside the replay window");
  const expected = createHmac("sha256", secret).update(t + ".").update(rawBody).digest("hex");
  const ok = candidates.some((c) => c.length === expected.length && timingSafeEqual(Buffer.from(c), Buffer.from(expected)));
  if (!ok) throw new SignatureError("no v1 signature matches");
  return JSON.parse(rawBody.toString("utf8")); // parsed only after the raw bytes verified
}
