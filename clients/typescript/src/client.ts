// createCreatorClient: the generated openapi-fetch client over the paced, retrying
// transport, plus iterators for every list and a batch upsert that sends 100 per request.
import createClient from "openapi-fetch";
import type { components, operations, paths } from "./generated/api.js";
import { ApiError, paginate } from "./paginate.js";
import { PacedTransport, type TransportOptions } from "./transport.js";

type S = components["schemas"];
type Query<Op extends keyof operations> = NonNullable<operations[Op]["parameters"]["query"]>;
type ListQuery<Op extends keyof operations> = Omit<Query<Op>, "cursor">;

export interface CreatorClientOptions extends TransportOptions {
  baseUrl: string; // e.g. https://api.example.com (the paths carry /api/v1)
  apiKey: string; // sk_live_...
  userAgent?: string;
}

export type StudentBatchItem = S["StudentBatchRequest"]["items"][number];
export type StudentBatchResult = S["StudentBatchResponse"]["results"][number];

export const maxBatchItems = 100;

export function createCreatorClient(opts: CreatorClientOptions) {
  const transport = new PacedTransport(opts);
  const headers: Record<string, string> = { Authorization: `Bearer ${opts.apiKey}` };
  if (opts.userAgent) headers["User-Agent"] = opts.userAgent;
  const api = createClient<paths>({ baseUrl: opts.baseUrl.replace(/\/+$/, ""), headers, fetch: transport.send });

  // must returns the data of an openapi-fetch result or throws ApiError.
  function must<T>(r: { data?: T; error?: unknown; response: Response }): T {
    if (r.data === undefined) throw new ApiError(r.response.status, r.error, r.response.headers.get("X-Request-Id"));
    return r.data;
  }

  return {
    api, // every operation, typed: api.GET("/api/v1/students/{id}", { params: { path: { id } } })
    transport,
    rateLimit: transport.rateLimit, // what the last answer's X-RateLimit-* said
    must,
    courses: {
      all: (query: ListQuery<"listCourses"> = {}) =>
        paginate((cursor) => api.GET("/api/v1/courses", { params: { query: { ...query, limit: query.limit ?? 100, cursor } } })),
    },
    students: {
      all: (query: ListQuery<"listStudents"> = {}) =>
        paginate((cursor) => api.GET("/api/v1/students", { params: { query: { ...query, limit: query.limit ?? 100, cursor } } })),
      // upsert sends items (any number) in batches of 100, one request and one
      // Idempotency-Key each (reused by the batch's retries); results keep input order.
      async upsert(items: StudentBatchItem[]): Promise<StudentBatchResult[]> {
        const results: StudentBatchResult[] = [];
        for (let i = 0; i < items.length; i += maxBatchItems) {
          const batch = items.slice(i, i + maxBatchItems);
          const page = must(await api.POST("/api/v1/students/batch", { body: { items: batch } }));
          results.push(...page.results);
        }
        return results;
      },
    },
    orders: {
      all: (query: ListQuery<"listOrders"> = {}) =>
        paginate((cursor) => api.GET("/api/v1/orders", { params: { query: { ...query, limit: query.limit ?? 100, cursor } } })),
    },
  };
}

export type CreatorClient = ReturnType<typeof createCreatorClient>;
