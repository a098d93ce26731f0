/// The SQL of the webhook outbox (Migrations/0028_webhooks.sql, whose triggers write it). Values
/// only as the parameters listed above each statement.
enum WebhookStatements {
    /// Takes up to $3 deliveries due at $1 (tried next at or before it), oldest due first, and
    /// moves their next attempt to $2, so that no other server takes them while this one sends;
    /// rows another transaction holds are skipped. Run as the tenant's operator: id, event, url,
    /// secret_env, body, attempts, created_at.
    static let claim = """
        update webhook_deliveries d
        set next_attempt_at = $2
        from (
            select tenant_id, id from webhook_deliveries
            where tenant_id = current_tenant_id() and next_attempt_at <= $1
            order by next_attempt_at
            limit $3
            for update skip locked
        ) due
        where d.tenant_id = due.tenant_id and d.id = due.id
        returning d.id, d.event, d.url, d.secret_env, d.body, d.attempts, d.created_at
        """

    /// Records an attempt of the delivery $1: its new status $2, the attempt's time $3, the
    /// receiver's HTTP status $4 and error $5 (each null when there is none), the next attempt
    /// $6 (null once DELIVERED or DEAD) and when it was delivered $7.
    static let record = """
        update webhook_deliveries
        set status = $2, attempts = attempts + 1, last_attempt_at = $3, last_status_code = $4, last_error = $5,
            next_attempt_at = $6, delivered_at = $7
        where tenant_id = current_tenant_id() and id = $1
        """

    /// Up to $4 deliveries before the position ($2 moment, $3 id), newest first, of status $1
    /// (null for any): id, event, url, status, attempts, last_status_code, last_error,
    /// last_attempt_at, next_attempt_at, created_at, delivered_at.
    static let page = """
        select id, event, url, status, attempts, last_status_code, last_error, last_attempt_at, next_attempt_at,
               created_at, delivered_at
        from webhook_deliveries
        where tenant_id = current_tenant_id()
          and ($1::text is null or status = $1::text)
          and (created_at, id) < ($2::timestamptz, $3::uuid)
        order by created_at desc, id desc
        limit $4
        """
}
