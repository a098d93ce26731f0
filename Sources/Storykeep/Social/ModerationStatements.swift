/// The SQL of `ModerationStore` and `RateLimits`: reports, the moderators' decisions,
/// suspensions, and counting what people do. Values only as the parameters listed above each
/// statement. Who may do what is held by the policies and the trigger of
/// Migrations/0034_social_moderation.sql: only moderators (agency admins of a tenant with the
/// module on) read reports and decide, and a reporter is never shown to the person reported.
enum ModerationStatements {
    // MARK: Reporting

    /// The person reports the post $1 (or, with $1 null, the comment $2) for the reason $3 with the
    /// text $4; reporting the same thing again while the first report is open changes nothing.
    static let report = """
        insert into social_reports (tenant_id, reporter_id, post_id, comment_id, reason, text)
        values (current_tenant_id(), current_person_id(), $1, $2, $3::text::social_report_reason, $4)
        on conflict do nothing
        """

    /// Whether the person reads the comment $1.
    static let readsComment = """
        select exists (select from social_comments c where c.tenant_id = current_tenant_id() and c.id = $1 and c.deleted_at is null)
        """

    // MARK: The queue

    /// The moderation queue after the position ($1 int8 open reports, $2 timestamptz, $3 uuid):
    /// each post or comment with open reports, by how many (most first) then since when (oldest
    /// first), then those held for review that nobody reported; $4 of them. Columns: the content's
    /// id, whether it is a post, its open reports, since when.
    static let queue = """
        with items as (
            select r.post_id as id, true as is_post, count(*) as n, min(r.created_at) as since
            from social_reports r
            where r.tenant_id = current_tenant_id() and r.resolved_at is null and r.post_id is not null
            group by r.post_id
            union all
            select r.comment_id, false, count(*), min(r.created_at)
            from social_reports r
            where r.tenant_id = current_tenant_id() and r.resolved_at is null and r.comment_id is not null
            group by r.comment_id
            union all
            select p.id, true, 0, p.created_at
            from social_posts p
            where p.tenant_id = current_tenant_id() and p.status = 'PENDING_REVIEW' and p.deleted_at is null
              and not exists (select from social_reports r where r.tenant_id = p.tenant_id and r.post_id = p.id and r.resolved_at is null)
            union all
            select c.id, false, 0, c.created_at
            from social_comments c
            where c.tenant_id = current_tenant_id() and c.status = 'PENDING_REVIEW' and c.deleted_at is null
              and not exists (select from social_reports r where r.tenant_id = c.tenant_id and r.comment_id = c.id and r.resolved_at is null)
        )
        select id, is_post, n, since from items
        where n < $1 or (n = $1 and (since, id) > ($2, $3))
        order by n desc, since, id
        limit $4
        """

    /// The posts among $1 (uuid[]), as a moderator reads them.
    static let postsByID = """
        select \(PostStatements.postColumns) from social_posts p
        where p.tenant_id = current_tenant_id() and p.id = any($1::uuid[])
        """

    /// The comments among $1 (uuid[]), as a moderator reads them.
    static let commentsByID = """
        select \(PostStatements.commentColumns) from social_comments c
        where c.tenant_id = current_tenant_id() and c.id = any($1::uuid[])
        """

    /// The open reports of the posts and comments among $1 (uuid[]), oldest first: the content's
    /// id, reason, text, when. Never who reported.
    static let openReports = """
        select coalesce(r.post_id, r.comment_id), r.reason::text, r.text, r.created_at
        from social_reports r
        where r.tenant_id = current_tenant_id() and r.resolved_at is null
          and (r.post_id = any($1::uuid[]) or r.comment_id = any($1::uuid[]))
        order by r.created_at, r.id
        """

    // MARK: Deciding

    /// Removes the post $1 (not deleted) for the reason $2.
    static let removePost = """
        update social_posts p set status = 'REMOVED', removed_at = clock_timestamp(), removal_reason = $2
        where p.tenant_id = current_tenant_id() and p.id = $1 and p.deleted_at is null
        returning \(PostStatements.postColumns)
        """

    /// Publishes the post $1 (not deleted) again, or for the first time when it was held.
    static let restorePost = """
        update social_posts p set status = 'PUBLISHED', removed_at = null, removal_reason = null
        where p.tenant_id = current_tenant_id() and p.id = $1 and p.deleted_at is null
        returning \(PostStatements.postColumns)
        """

    /// Removes the comment $1 (not deleted) for the reason $2.
    static let removeComment = """
        update social_comments c set status = 'REMOVED', removed_at = clock_timestamp(), removal_reason = $2
        where c.tenant_id = current_tenant_id() and c.id = $1 and c.deleted_at is null
        returning \(PostStatements.commentColumns)
        """

    /// Closes the open reports of the post or comment $1 as $2 (`REMOVED`, `DISMISSED`): how many.
    static let resolve = """
        with resolved as (
            update social_reports r set resolved_at = clock_timestamp(), resolution = $2
            where r.tenant_id = current_tenant_id() and r.resolved_at is null and (r.post_id = $1 or r.comment_id = $1)
            returning 1
        )
        select count(*) from resolved
        """

    // MARK: Suspensions

    /// Whether $1 is a person of the tenant who is no agency admin.
    static let suspendable = """
        select exists (select from people p where p.tenant_id = current_tenant_id() and p.id = $1 and p.role <> 'AGENCY_ADMIN')
        """

    /// Suspends $1 until $2 for the reason $3, in the moderator's name.
    static let suspend = """
        insert into social_suspensions (tenant_id, person_id, until, reason, suspended_by)
        values (current_tenant_id(), $1, $2, $3, current_person_id())
        """

    /// Until when, and why, the person is suspended (the latest end), when they are now.
    static let mySuspension = """
        select s.until, s.reason from social_suspensions s
        where s.tenant_id = current_tenant_id() and s.person_id = current_person_id() and s.until > clock_timestamp()
        order by s.until desc
        limit 1
        """

    // MARK: Rate limits

    /// Waits for the person's other transactions counting the action $1, so that two servers
    /// never both let the last one through (held to the end of the transaction).
    static let lockAction = """
        select pg_advisory_xact_lock(hashtextextended(current_tenant_id()::text || current_person_id()::text || $1, 0))
        """

    /// Forgets the person's actions $1 older than $2 seconds.
    static let forgetActions = """
        delete from social_rate_events e
        where e.tenant_id = current_tenant_id() and e.person_id = current_person_id() and e.action = $1
          and e.at <= clock_timestamp() - $2::int8 * interval '1 second'
        """

    /// Counts the person's action $1 when they did it fewer than $3 times in the last $2 seconds:
    /// whether it was counted, and else in how many seconds the oldest leaves the window.
    static let takeAction = """
        with recent as (
            select count(*) as n, min(e.at) as oldest from social_rate_events e
            where e.tenant_id = current_tenant_id() and e.person_id = current_person_id() and e.action = $1
              and e.at > clock_timestamp() - $2::int8 * interval '1 second'
        ), taken as (
            insert into social_rate_events (tenant_id, person_id, action)
            select current_tenant_id(), current_person_id(), $1 from recent where n < $3
            returning 1
        )
        select n < $3,
               greatest(1, ceil(extract(epoch from oldest + $2::int8 * interval '1 second' - clock_timestamp())))::int8
        from recent
        """
}
