// What the schema cannot say about a seed: records belong to the application they are
// listed under, ids are unique, providers hold positions 1..n with one default, and
// activity and history point at known users and webhooks.
import type { Seed } from "./types.js";

/** One message per broken relation, each naming the bad path. */
export function seedRelationErrors(seed: Seed): string[] {
  const errors: string[] = [];
  const at = (path: string, message: string) => errors.push(`seed ${path}: ${message}`);
  const seenIds = new Map<string, string>();
  const unique = (path: string, id: string) => {
    const first = seenIds.get(id);
    if (first !== undefined) at(path, `id ${id} is already used at ${first}`);
    else seenIds.set(id, path);
  };

  seed.applications.forEach((app, a) => {
    const base = `/applications/${a}`;
    unique(`${base}/id`, app.id);
    const owned = (path: string, record: { application_id?: string; organization_id?: string }) => {
      if (record.application_id !== undefined && record.application_id !== app.id) at(`${path}/application_id`, `must be ${app.id}`);
      if (record.organization_id !== undefined && record.organization_id !== app.organization_id) at(`${path}/organization_id`, `must be ${app.organization_id}`);
    };
    const users = new Set(app.users.map((user) => user.id));
    app.users.forEach((user, i) => unique(`${base}/users/${i}/id`, user.id));
    app.widgets.forEach((widget, i) => {
      unique(`${base}/widgets/${i}/id`, widget.id);
      owned(`${base}/widgets/${i}`, widget);
      if (widget.domain.organization_id !== app.organization_id) at(`${base}/widgets/${i}/domain/organization_id`, `must be ${app.organization_id}`);
    });
    app.activities.forEach((record, i) => {
      unique(`${base}/activities/${i}/id`, record.id);
      owned(`${base}/activities/${i}`, record);
      if (!users.has(record.account_id)) at(`${base}/activities/${i}/account_id`, `${record.account_id} is not a user of this application`);
    });
    app.encryption_reports.forEach((record, i) => {
      unique(`${base}/encryption_reports/${i}/id`, record.id);
      owned(`${base}/encryption_reports/${i}`, record);
    });

    const sorts = app.sms_providers.map((provider) => provider.sort).sort((x, y) => x - y);
    if (sorts.some((sort, i) => sort !== i + 1)) at(`${base}/sms_providers`, "sort values must be 1..n without gap or duplicate");
    const defaults = app.sms_providers.filter((provider) => provider.is_default).length;
    if (app.sms_providers.length > 0 && defaults !== 1) at(`${base}/sms_providers`, `exactly one provider must be the default (found ${defaults})`);
    app.sms_providers.forEach((provider, i) => unique(`${base}/sms_providers/${i}/id`, provider.id));

    if (app.email_transport !== null) unique(`${base}/email_transport/id`, app.email_transport.id);
    const webhooks = new Set(app.webhooks.map((webhook) => webhook.id));
    app.webhooks.forEach((webhook, i) => {
      unique(`${base}/webhooks/${i}/id`, webhook.id);
      owned(`${base}/webhooks/${i}`, webhook);
    });
    app.webhook_history.forEach((record, i) => {
      unique(`${base}/webhook_history/${i}/id`, record.id);
      if (!webhooks.has(record.webhook_id)) at(`${base}/webhook_history/${i}/webhook_id`, `${record.webhook_id} is not a webhook of this application`);
    });
  });
  return errors;
}
