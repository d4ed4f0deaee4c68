// The transport under openapi-fetch: every chore around one logical call of the client.
//   - pacing: when the last answer said fewer than `minRemaining` requests are left this
//     minute, wait for X-RateLimit-Reset before sending (capped by maxPaceMs);
//   - a timeout per try (AbortSignal.timeout), joined with the caller's own signal;
//   - retries after a network error or timeout, a 429 (after Retry-After) or a 5xx, with
//     exponential backoff and full jitter;
//   - one Idempotency-Key per logical POST (a random UUID unless the caller set one), sent
//     again on each of its retries, so a retry after a lost answer is replayed by the
//     service instead of applied twice (docs/idempotency.md).
// GET, PATCH (merge semantics) and DELETE (idempotent) are retried as they are.
export type Transport = (input: Request) => Promise<Response>;

export interface TransportOptions {
  timeoutMs?: number; // per try (default 30 000)
  attempts?: number; // tries in all, the first included (default 6)
  baseDelayMs?: number; // first backoff, doubled per retry, full jitter (default 250)
  maxDelayMs?: number; // cap of one backoff or Retry-After wait (default 60 000)
  minRemaining?: number; // pace when X-RateLimit-Remaining drops below this (default 5)
  maxPaceMs?: number; // cap of one pacing wait (default 60 000)
  fetch?: Transport; // what sends one try (default: global fetch)
  newKey?: () => string; // a fresh Idempotency-Key (default: crypto.randomUUID)
  onAttempt?: (a: AttemptInfo) => void; // observability: called after every try
  sleep?: (ms: number) => Promise<void>;
}

export interface AttemptInfo {
  method: string;
  url: string;
  attempt: number;
  idempotencyKey: string | null;
  status?: number; // absent after a network error or timeout
  error?: unknown;
}

export interface RateLimitState {
  limit?: number;
  remaining?: number;
  resetAt?: number; // unix seconds
  dailyLimit?: number;
  dailyRemaining?: number;
}

export const idempotencyKeyHeader = "Idempotency-Key";

export class PacedTransport {
  readonly rateLimit: RateLimitState = {};
  private readonly o: Required<Omit<TransportOptions, "onAttempt">> & Pick<TransportOptions, "onAttempt">;

  constructor(opts: TransportOptions = {}) {
    this.o = {
      timeoutMs: opts.timeoutMs ?? 30_000,
      attempts: opts.attempts ?? 6,
      baseDelayMs: opts.baseDelayMs ?? 250,
      maxDelayMs: opts.maxDelayMs ?? 60_000,
      minRemaining: opts.minRemaining ?? 5,
      maxPaceMs: opts.maxPaceMs ?? 60_000,
      fetch: opts.fetch ?? ((r: Request) => fetch(r)),
      newKey: opts.newKey ?? (() => crypto.randomUUID()),
      sleep: opts.sleep ?? ((ms: number) => new Promise((r) => setTimeout(r, ms))),
      onAttempt: opts.onAttempt,
    };
  }

  // send is the openapi-fetch `fetch` option: createClient({ fetch: t.send }).
  readonly send: Transport = async (input: Request) => {
    let request = input;
    if (request.method === "POST" && !request.headers.has(idempotencyKeyHeader)) {
      const headers = new Headers(request.headers);
      headers.set(idempotencyKeyHeader, this.o.newKey());
      request = new Request(request, { headers });
    }
    const key = request.headers.get(idempotencyKeyHeader);
    for (let attempt = 1; ; attempt++) {
      await this.pace();
      let res: Response | undefined;
      let error: unknown;
      const signal = request.signal
        ? AbortSignal.any([request.signal, AbortSignal.timeout(this.o.timeoutMs)])
        : AbortSignal.timeout(this.o.timeoutMs);
      try {
        res = await this.o.fetch(new Request(request.clone(), { signal }));
        this.observe(res);
      } catch (err) {
        if (request.signal?.aborted) throw err; // the caller gave up: no retry
        error = err;
      }
      this.o.onAttempt?.({ method: request.method, url: request.url, attempt, idempotencyKey: key, status: res?.status, error });
      if (res && !retryable(res.status)) return res;
      if (attempt >= this.o.attempts) {
        if (res) return res;
        throw error;
      }
      await res?.body?.cancel();
      await this.o.sleep(this.backoff(attempt, res));
    }
  };

  private observe(res: Response): void {
    const n = (name: string) => {
      const v = res.headers.get(name);
      return v === null || v === "" || !Number.isFinite(Number(v)) ? undefined : Number(v);
    };
    const rl = this.rateLimit;
    rl.limit = n("X-RateLimit-Limit") ?? rl.limit;
    rl.remaining = n("X-RateLimit-Remaining") ?? rl.remaining;
    rl.resetAt = n("X-RateLimit-Reset") ?? rl.resetAt;
    rl.dailyLimit = n("X-RateLimit-Daily-Limit") ?? rl.dailyLimit;
    rl.dailyRemaining = n("X-RateLimit-Daily-Remaining") ?? rl.dailyRemaining;
  }

  // pace waits for the minute's reset when the last answer left fewer than minRemaining.
  private async pace(): Promise<void> {
    const { remaining, resetAt } = this.rateLimit;
    if (remaining === undefined || resetAt === undefined || remaining >= this.o.minRemaining) return;
    const wait = resetAt * 1000 - Date.now();
    if (wait > 0) await this.o.sleep(Math.min(wait, this.o.maxPaceMs));
    this.rateLimit.remaining = undefined; // the next answer tells again
  }

  // backoff honours Retry-After (seconds) on a 429 or 503; otherwise exponential, full jitter.
  private backoff(attempt: number, res?: Response): number {
    const after = Number(res?.headers.get("Retry-After") ?? NaN);
    if (res && (res.status === 429 || res.status === 503) && Number.isFinite(after) && after >= 0) {
      return Math.min(after * 1000, this.o.maxDelayMs);
    }
    return Math.min(Math.random() * this.o.baseDelayMs * 2 ** (attempt - 1), this.o.maxDelayMs);
  }
}

function retryable(status: number): boolean {
  return status === 429 || status >= 500;
}
