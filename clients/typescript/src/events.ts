// Typed event payloads: the envelopes the OpenAPI document's `webhooks` section names, one
// per event type, generated into ./generated/api.ts. Narrow on `type`:
//   if (event.type === "order.paid") event.data.amount ...
import type { components } from "./generated/api.js";

type S = components["schemas"];

export type EventType = S["EventType"];

export interface EventsByType {
  "student.created": S["StudentCreatedEvent"];
  "student.updated": S["StudentUpdatedEvent"];
  "student.deleted": S["StudentDeletedEvent"];
  "enrollment.created": S["EnrollmentCreatedEvent"];
  "enrollment.revoked": S["EnrollmentRevokedEvent"];
  "order.paid": S["OrderPaidEvent"];
  "order.refunded": S["OrderRefundedEvent"];
  "course.published": S["CoursePublishedEvent"];
  "course.archived": S["CourseArchivedEvent"];
  "live_session.started": S["LiveSessionStartedEvent"];
  "live_session.ended": S["LiveSessionEndedEvent"];
  "recording.ready": S["RecordingReadyEvent"];
  "certificate.issued": S["CertificateIssuedEvent"];
  "webhook_endpoint.disabled": S["WebhookEndpointDisabledEvent"];
  "webhook_endpoint.failing": S["WebhookEndpointFailingEvent"];
  "webhook_delivery.exhausted": S["WebhookDeliveryExhaustedEvent"];
}

// Every type of the document has its payload here (a new type fails the build until added).
type Missing = Exclude<EventType, keyof EventsByType>;
const _allTypesCovered: Missing extends never ? true : Missing = true;
void _allTypesCovered;

export type WebhookEvent = { [K in keyof EventsByType]: EventsByType[K] & { type: K } }[keyof EventsByType];

export function isEventOfType<K extends keyof EventsByType>(event: WebhookEvent, type: K): event is Extract<WebhookEvent, { type: K }> {
  return event.type === type;
}
