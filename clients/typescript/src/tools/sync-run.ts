// The acceptance sync: upserts the contacts of CREATORAPI_CONTACTS (a JSON array of batch
// items) with the client, through whatever CREATORAPI_BASE_URL points at (the Go test puts a
// lossy proxy there), and prints one JSON line: tries, the batches' keys, time, results.
import { readFileSync } from "node:fs";
import { createCreatorClient, type StudentBatchItem } from "../index.js";

const contacts = JSON.parse(readFileSync(process.env.CREATORAPI_CONTACTS!, "utf8")) as StudentBatchItem[];
const tries: Array<{ key: string | null; status?: number; error?: string }> = [];
const c = createCreatorClient({
  baseUrl: process.env.CREATORAPI_BASE_URL!,
  apiKey: process.env.CREATORAPI_API_KEY!,
  attempts: 12,
  baseDelayMs: 50,
  timeoutMs: 10_000,
  onAttempt: (a) => tries.push({ key: a.idempotencyKey, status: a.status, error: a.error ? String(a.error) : undefined }),
});
const start = performance.now();
const results = await c.students.upsert(contacts);
const ms = Math.round(performance.now() - start);
const counts: Record<string, number> = {};
for (const r of results) counts[r.status] = (counts[r.status] ?? 0) + 1;
console.log(JSON.stringify({ ms, tries, counts, results: results.length, rateLimit: c.rateLimit }));
