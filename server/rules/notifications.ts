// POST /notifications beyond what the schema already enforces (targets, type-specific
// fields, lengths): receivers must be users who have logged in, groups must exist, and
// `send_at` must not be more than a minute in the past.
import { invalid, type ProblemErrorItem } from "../problems.js";
import type { Activity, Notification, NotificationCreate } from "../domain/index.js";
import type { SeedUser } from "../seed/types.js";

/** How far in the past `send_at` may be, to allow for clock skew and transit. */
export const sendAtTolerance = 60_000;

/** What the rules need to know about the caller's application. */
export interface Audience {
  /** True for a user id or e-mail of a user with an APPROVED AUTHENTICATION activity. */
  canReceive(receiver: string): boolean;
  /** True for a group id that some user of the application belongs to. */
  hasGroup(group: number): boolean;
}

/**
 * The audience of seeded users (the store's and the mock's): the ids and e-mails (without
 * case) of users with an APPROVED AUTHENTICATION activity may receive, and the groups are
 * those some user belongs to.
 */
export function seedAudience(users: readonly SeedUser[], activities: readonly Pick<Activity, "account_id" | "type" | "status">[]): Audience {
  const loggedIn = new Set(activities.filter((record) => record.type === "AUTHENTICATION" && record.status === "APPROVED").map((record) => record.account_id));
  const receivers = users.filter((user) => loggedIn.has(user.id));
  const ids = new Set(receivers.map((user) => user.id));
  const emails = new Set(receivers.map((user) => user.email.toLowerCase()));
  const groups = new Set(users.flatMap((user) => user.groups));
  return {
    canReceive: (receiver) => (receiver.includes("@") ? emails.has(receiver.toLowerCase()) : ids.has(receiver)),
    hasGroup: (group) => groups.has(group),
  };
}

/** The instant of `send_at` (`now` and absent mean the clock's now). */
export function resolveSendAt(sendAt: number | "now" | undefined, now: Date): Date {
  return sendAt === undefined || sendAt === "now" ? now : new Date(sendAt * 1000);
}

/** Every rule violation of the request, one error per offending value. */
export function notificationErrors(request: NotificationCreate, audience: Audience, now: Date): ProblemErrorItem[] {
  const errors: ProblemErrorItem[] = [];
  request.receivers?.forEach((receiver, i) => {
    if (!audience.canReceive(receiver)) {
      errors.push({ in: "body", pointer: `/receivers/${i}`, message: `${receiver} is not a user of this application who has logged in` });
    }
  });
  request.groups?.forEach((group, i) => {
    if (!audience.hasGroup(group)) errors.push({ in: "body", pointer: `/groups/${i}`, message: `group ${group} does not exist` });
  });
  const sendAt = resolveSendAt(request.send_at, now);
  if (sendAt.getTime() < now.getTime() - sendAtTolerance) {
    errors.push({ in: "body", pointer: "/send_at", message: `${sendAt.toISOString()} is more than 60 seconds in the past` });
  }
  return errors;
}

/**
 * The notifications a store keeps per application: past it the oldest are dropped, so one
 * key pair cannot grow the store without bound.
 */
export const notificationsKept = 1000;

/**
 * The receivers with each named once: spellings that differ only in letter case name the same
 * user (e-mail addresses are matched without case), so only the first is kept.
 */
export function distinctReceivers(receivers: readonly string[]): string[] {
  const seen = new Set<string>();
  return receivers.filter((receiver) => {
    const key = receiver.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A new notification id: 12 random hex digits (Web Crypto: the MSW handlers run this rule in browsers too). */
export function newNotificationId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `ntf_${Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")}`;
}

/** The notification to store and return, or a 400 naming every offending value. */
export function createNotification(request: NotificationCreate, audience: Audience, now: Date, id = newNotificationId()): Notification {
  const errors = notificationErrors(request, audience, now);
  if (errors.length > 0) throw invalid("The notification cannot be scheduled.", errors);
  return {
    id,
    type: request.type,
    status: "PENDING",
    title: request.title,
    content: request.content,
    level: request.level ?? 0,
    open_count: 0,
    send_at: resolveSendAt(request.send_at, now).toISOString(),
    name: request.name ?? "",
    receivers: distinctReceivers(request.receivers ?? []),
  };
}
