/// The SQL of safety alerts: what `SafetyAlerts` runs for the person of the transaction, and
/// `SafetyEscalation` as the tenant's operator, under the policies of Migrations/0014_safety.sql.
/// Values only as the parameters listed above each statement; no value is spliced into the text,
/// only the constant fragment ``alertsWithYoungPerson(from:)`` that the statements returning
/// alerts share.
///
/// A statement that returns alerts selects the columns `SafetyRows.alert` reads: the alert's id,
/// message, raised_at, status, acknowledged_at, resolved_at and escalated_at, then four for its
/// young person (id, role, the name the reader may see, avatar: as the caseload reads people).
enum SafetyStatements {
    // MARK: The young person's

    /// Raises an alert for the context's person with the message $1 (or none): the alert, and
    /// the name the young person goes by (their profile's, else the agency's records').
    static let raise = """
        with raised as (
            insert into safety_alerts (tenant_id, young_person_id, message)
            values (current_tenant_id(), current_person_id(), $1)
            returning tenant_id, id, young_person_id, message, raised_at, status, acknowledged_at, resolved_at, escalated_at
        )

        """ + alertsWithYoungPerson(from: "raised a")

    /// The context's person's own alerts, newest first, at most $1.
    static let own = alertsWithYoungPerson(from: "safety_alerts a") + """
        where a.tenant_id = current_tenant_id() and a.young_person_id = current_person_id()
        order by a.raised_at desc, a.id desc
        limit $1
        """

    // MARK: Staff's

    /// The alerts the context's person sees (safety_alerts_read), newest first, at most $3: the
    /// alert $1 alone, or every one (when null); of the status $2 (a `safety_alert_status`), or
    /// of any (when null).
    static let alerts = alertsWithYoungPerson(from: "safety_alerts a") + """
        where a.tenant_id = current_tenant_id() and ($1::uuid is null or a.id = $1)
          and ($2::safety_alert_status is null or a.status = $2::safety_alert_status)
        order by a.raised_at desc, a.id desc
        limit $3
        """

    /// The notes of the alerts $1 (uuid[]) the context's person sees, in order: each one's alert,
    /// action, author's id and name, note and time.
    static let notes = """
        select n.alert_id, n.action::text, n.author_id, n.author_name, n.note, n.created_at
        from safety_alert_notes n
        where n.tenant_id = current_tenant_id() and n.alert_id = any($1::uuid[])
        order by n.created_at, n.id
        """

    /// Acknowledges the open alert $1 in the name of the context's person, now: its young
    /// person, or no row when it is no open alert they may act on.
    static let acknowledge = """
        update safety_alerts
        set status = 'ACKNOWLEDGED', acknowledged_by = current_person_id(), acknowledged_at = clock_timestamp()
        where tenant_id = current_tenant_id() and id = $1 and status = 'OPEN'
        returning young_person_id
        """

    /// Resolves the alert $1, open or acknowledged, in the name of the context's person, now (an
    /// open one is acknowledged by them at the same moment): its young person, and whether this
    /// acknowledged it; no row when it is no unresolved alert they may act on.
    static let resolve = """
        update safety_alerts a
        set status = 'RESOLVED', resolved_by = current_person_id(), resolved_at = t.at,
            acknowledged_by = coalesce(a.acknowledged_by, current_person_id()), acknowledged_at = coalesce(a.acknowledged_at, t.at)
        from (select clock_timestamp() as at) t
        where a.tenant_id = current_tenant_id() and a.id = $1 and a.status <> 'RESOLVED'
        returning a.young_person_id, a.acknowledged_at = t.at
        """

    /// Notes the step $2 (a `safety_alert_action`) on the alert $1, with the text $3 (or none),
    /// in the name of the context's person and the name they go by now.
    static let note = """
        insert into safety_alert_notes (tenant_id, alert_id, author_id, author_name, action, note)
        select p.tenant_id, $1, p.id, coalesce(pr.display_name, p.display_name), $2::safety_alert_action, $3
        from people p
        left join profiles pr on pr.tenant_id = p.tenant_id and pr.person_id = p.id
        where p.tenant_id = current_tenant_id() and p.id = current_person_id()
        """

    // MARK: The server's (as the tenant's operator)

    /// Escalates, at $1, the open alerts not escalated yet that were raised at least $2 minutes
    /// before, or whose young person has no social worker (not switched off) to see them: each
    /// one's id and its young person's name in the agency's records.
    static let escalate = """
        with escalated as (
            update safety_alerts a set escalated_at = $1::timestamptz
            where a.tenant_id = current_tenant_id() and a.status = 'OPEN' and a.escalated_at is null
              and (a.raised_at <= $1::timestamptz - make_interval(mins => $2::int)
                   or not exists (
                       select from assignments s
                       join people w on w.tenant_id = s.tenant_id and w.id = s.adult_id
                       where s.tenant_id = a.tenant_id and s.young_person_id = a.young_person_id
                         and s.relationship = 'SOCIAL_WORKER' and s.until is null and w.disabled_at is null))
            returning a.tenant_id, a.id, a.young_person_id
        )
        select e.id, yp.display_name
        from escalated e
        join people yp on yp.tenant_id = e.tenant_id and yp.id = e.young_person_id
        order by e.id
        """

    /// The tenant's agency admins not switched off: whom an escalation tells.
    static let admins = """
        select id from people
        where tenant_id = current_tenant_id() and role = 'AGENCY_ADMIN' and disabled_at is null
        order by id
        """

    /// The columns of alerts and their young people, from `alerts` (`safety_alerts a`, or a CTE of
    /// such rows named `a`) and their people and profiles: what the statements returning alerts
    /// begin with (or, after a CTE, are).
    private static func alertsWithYoungPerson(from alerts: StaticString) -> String {
        """
        select a.id, a.message, a.raised_at, a.status::text, a.acknowledged_at, a.resolved_at, a.escalated_at,
               yp.id, yp.role::text, coalesce(ypr.display_name, yp.display_name), ypr.avatar
        from \(alerts)
        join people yp on yp.tenant_id = a.tenant_id and yp.id = a.young_person_id
        left join profiles ypr on ypr.tenant_id = yp.tenant_id and ypr.person_id = yp.id

        """
    }
}
