// The kit's transport for openapi-fetch (createClient({ fetch: retryingFetch() })): safe
// retries of POSTs. Each logical call (one call of the client) gets a fresh
// Idempotency-Key unless the caller set one, and every retry of that call (after a
// network error, a 429 or a 5xx) sends the same key: a retry after a lost answer gets the
// stored answer back (Idempotent-Replayed: true) instead of creating twice.
export type Transport = (input: Request) => Promise<Response>;

export interface RetryOptions {
  attempts?: number; // tries in all, the first included (default 4)
  baseDelayMs?: number; // the first backoff; doubled per retry, with jitter (default 200)
  transport?: Transport; // what sends one try (default: global fetch)
  newKey?: () => string; // a fresh key (default: a random UUID)
}

export const idempotencyKeyHeader = "Idempotency-Key";

export function retryingFetch(opts: RetryOptions = {}): Transport {
  const attempts = opts.attempts ?? 4;
  const base = opts.baseDelayMs ?? 200;
  const transport = opts.transport ?? ((r: Request) => fetch(r));
  const newKey = opts.newKey ?? (() => crypto.randomUUID());
  return async (input: Request) => {
    let request = input;
    if (request.method === "POST" && !request.headers.has(idempotencyKeyHeader)) {
      const headers = new Headers(request.headers);
      headers.set(idempotencyKeyHeader, newKey());
      request = new Request(request, { headers });
    }
    for (let attempt = 1; ; attempt++) {
      let res: Response | undefined;
      try {
        res = await transport(request.clone());
      } catch (err) {
        if (attempt >= attempts) throw err;
      }
      if (res && (attempt >= attempts || !retryable(res.status))) return res;
      await res?.body?.cancel();
      await sleep(backoff(attempt, base, res));
    }
  };
}

function retryable(status: number): boolean {
  return status === 429 || status >= 500;
}

// backoff honours Retry-After (seconds) on a 429; otherwise exponential with full jitter.
function backoff(attempt: number, base: number, res?: Response): number {
  const after = Number(res?.headers.get("Retry-After"));
  if (res?.status === 429 && Number.isFinite(after) && after > 0) return after * 1000;
  return Math.random() * base * 2 ** (attempt - 1);
}

function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
