// Auto-pagination: the lists answer {data, pagination: {cursor, has_more}}; the next page
// is the same call with `cursor` set to the previous page's `pagination.cursor` (null on
// the last page). Each page is one request through the transport (paced and retried).
export interface Page<T> {
  data: T[];
  pagination: { cursor?: string | null; has_more: boolean };
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly requestId: string | null,
  ) {
    const e = (body as { error?: { code?: string; message?: string } } | undefined)?.error;
    super(`creatorapi: ${status} ${e?.code ?? ""}: ${e?.message ?? JSON.stringify(body)}`);
    this.name = "ApiError";
  }
}

// An openapi-fetch result.
export interface FetchResult<P> {
  data?: P;
  error?: unknown;
  response: Response;
}

// paginate yields every item of a list; fetchPage does one openapi-fetch call for a cursor.
export async function* paginate<T>(fetchPage: (cursor: string | undefined) => Promise<FetchResult<Page<T>>>): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  for (;;) {
    const { data, error, response } = await fetchPage(cursor);
    if (!data) throw new ApiError(response.status, error, response.headers.get("X-Request-Id"));
    yield* data.data;
    const next = data.pagination.cursor;
    if (!data.pagination.has_more || !next) return;
    cursor = next;
  }
}
