/// The SQL of prompts from adults: what `PromptStore` runs, as the young person or the adult the
/// transaction runs for, under the policies of Migrations/0013_prompts.sql. Values only as the
/// parameters listed above each statement; no value is spliced into the text, only the constant
/// fragment ``promptsWithPeople(from:)`` that the statements returning prompts share.
///
/// A statement that returns prompts selects the columns `PromptRows.prompt` reads: the prompt's
/// id, text, sent_at, dismissed_at, answered_at and answered_entry_id, then four for its young
/// person and four for its adult (id, role, the name the reader may see, avatar: as the
/// caseload reads people), the adult's null where the reader may not see them.
enum PromptStatements {
    // MARK: The adult's

    /// Sends the prompt $2 from the context's person to the young person $1, when they look after
    /// them now and the young person is not switched off: the prompt, or no row when $1 is no
    /// such young person. Its trigger counts it, and refuses it past the tenant's limit
    /// (`adult_prompts_open_limit`).
    static let send = """
        with sent as (
            insert into adult_prompts (tenant_id, young_person_id, adult_id, text)
            select yp.tenant_id, yp.id, current_person_id(), $2
            from people yp
            where yp.tenant_id = current_tenant_id() and yp.id = $1 and yp.disabled_at is null
              and yp.id in (select p from current_assigned_people() as p)
            returning tenant_id, id, young_person_id, adult_id, text, sent_at, dismissed_at, answered_at, answered_entry_id
        )

        """ + promptsWithPeople(from: "sent pr")

    /// Whether the context's person looks after the young person $1 now (a current assignment,
    /// the young person not switched off).
    static let looksAfter = """
        select exists (
            select from people yp
            where yp.tenant_id = current_tenant_id() and yp.id = $1 and yp.disabled_at is null
              and yp.id in (select p from current_assigned_people() as p))
        """

    /// The prompts the context's person sent to the young person $1, newest first, at most $2.
    static let sent = promptsWithPeople(from: "adult_prompts pr") + """
        where pr.tenant_id = current_tenant_id() and pr.adult_id = current_person_id() and pr.young_person_id = $1
        order by pr.sent_at desc, pr.id desc
        limit $2
        """

    // MARK: The young person's

    /// The context's person's prompts, newest first, at most $3: the prompt $1 alone, or every
    /// one (when null); those open when $2 is true, those closed when false, all when null.
    static let received = promptsWithPeople(from: "adult_prompts pr") + """
        where pr.tenant_id = current_tenant_id() and pr.young_person_id = current_person_id()
          and ($1::uuid is null or pr.id = $1)
          and ($2::boolean is null or (pr.answered_at is null and pr.dismissed_at is null) = $2)
        order by pr.sent_at desc, pr.id desc
        limit $3
        """

    /// Dismisses the context's person's open prompt $1 now: its id, or no row when it is no open
    /// prompt of theirs.
    static let dismiss = """
        update adult_prompts set dismissed_at = clock_timestamp()
        where tenant_id = current_tenant_id() and young_person_id = current_person_id() and id = $1
          and answered_at is null and dismissed_at is null
        returning id
        """

    /// Answers the context's person's open prompt $1 with their entry $2 now: its adult, whether
    /// that adult looks after them now (and so is told), and the young person's name as they go
    /// by (their profile's, else the agency's records'); no row when $1 is no open prompt of theirs.
    static let answer = """
        with answered as (
            update adult_prompts set answered_entry_id = $2, answered_at = clock_timestamp()
            where tenant_id = current_tenant_id() and young_person_id = current_person_id() and id = $1
              and answered_at is null and dismissed_at is null
            returning adult_id
        )
        select a.adult_id, a.adult_id in (select p from current_assigned_people() as p),
               coalesce(mr.display_name, me.display_name)
        from answered a
        join people me on me.tenant_id = current_tenant_id() and me.id = current_person_id()
        left join profiles mr on mr.tenant_id = me.tenant_id and mr.person_id = me.id
        """

    /// The entry the context's person's prompt $1 is answered with: one row (null when open,
    /// dismissed or its entry purged), or none when $1 is no prompt of theirs.
    static let answeredWith = """
        select answered_entry_id from adult_prompts
        where tenant_id = current_tenant_id() and young_person_id = current_person_id() and id = $1
        """

    /// The columns of prompts and their two people, from `prompts` (`adult_prompts pr`, or a CTE
    /// of such rows named `pr`) and their people and profiles: what the statements returning
    /// prompts begin with (or, after a CTE, are).
    private static func promptsWithPeople(from prompts: StaticString) -> String {
        """
        select pr.id, pr.text, pr.sent_at, pr.dismissed_at, pr.answered_at, pr.answered_entry_id,
               yp.id, yp.role::text, coalesce(ypr.display_name, yp.display_name), ypr.avatar,
               ad.id, ad.role::text, coalesce(adr.display_name, ad.display_name), adr.avatar
        from \(prompts)
        join people yp on yp.tenant_id = pr.tenant_id and yp.id = pr.young_person_id
        left join profiles ypr on ypr.tenant_id = yp.tenant_id and ypr.person_id = yp.id
        left join people ad on ad.tenant_id = pr.tenant_id and ad.id = pr.adult_id
        left join profiles adr on adr.tenant_id = ad.tenant_id and adr.person_id = ad.id

        """
    }
}
