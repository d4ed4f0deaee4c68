// @creatorapi/client: creatorapi's TypeScript client (README: clients/typescript/README.md).
export { createCreatorClient, maxBatchItems, type CreatorClient, type CreatorClientOptions, type StudentBatchItem, type StudentBatchResult } from "./client.js";
export { PacedTransport, idempotencyKeyHeader, type AttemptInfo, type RateLimitState, type Transport, type TransportOptions } from "./transport.js";
export { paginate, ApiError, type Page } from "./paginate.js";
export { verifyWebhook, verifySvcSignature, verifyStandardWebhook, WebhookSignatureError, replayWindowSeconds, type HeaderBag } from "./webhooks.js";
export { isEventOfType, type EventType, type EventsByType, type WebhookEvent } from "./events.js";
export type { components, operations, paths } from "./generated/api.js";
