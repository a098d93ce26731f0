/// The SQL of `ShareStore`: what authors share and what sharees read. Values only as the
/// parameters listed above each statement; no value is spliced into the text, only the constant
/// fragments of this enum that several statements share.
///
/// Every statement names the person it runs for (`author_id` or `sharee_id` =
/// `current_person_id()`), so that the indexes of Migrations/0012_sharing.sql serve it, and the
/// policies there hold it to what that person may see and write whatever it says: a sharee reads
/// a share, its entry, the entry's files and tags only while the share stands, their assignment
/// to the author is current and the entry is not archived.
///
/// A statement that returns what a sharee reads (``sharedPage``, ``sharedUnseenPage``,
/// ``sharedByID``) selects the columns `EntryRows.decode` reads, then the share's
/// (`ShareRows.decodeShare`).
enum ShareStatements {
    // MARK: The author

    /// What `share` asks before writing, in one row:
    /// 0. whether the person has the live entry $1;
    /// 1. the ids among $2 (uuid[]) who are not adults of their current team (assigned now, not
    ///    switched off), in their order;
    /// 2. the person's name as their team reads it (their profile's, else the agency's).
    static let shareCheck = """
        select
            \(ownsLiveEntry),
            \(idsAmong2(without: """
                select from assignments a
                join people p on p.tenant_id = a.tenant_id and p.id = a.adult_id
                where a.tenant_id = current_tenant_id() and a.young_person_id = current_person_id()
                  and a.adult_id = x.id and a.until is null and p.disabled_at is null
                """)),
            (select coalesce(pr.display_name, p.display_name)
             from people p left join profiles pr on pr.tenant_id = p.tenant_id and pr.person_id = p.id
             where p.tenant_id = current_tenant_id() and p.id = current_person_id())
        """

    /// Closes the person's standing shares of the entry $1 with the sharees $2 (uuid[]) that were
    /// made in an assignment since ended (which the sharee no longer reads), so that sharing
    /// with them again in their current assignment makes a new share.
    static let closeSuspended = """
        update shares s set unshared_at = clock_timestamp()
        where s.tenant_id = current_tenant_id() and s.author_id = current_person_id() and s.entry_id = $1
          and s.sharee_id = any($2::uuid[]) and s.unshared_at is null
          and not exists (select from assignments a
                          where a.tenant_id = s.tenant_id and a.id = s.assignment_id and a.until is null)
        """

    /// Shares the person's entry $1 with each of $2 (uuid[], adults of their current team) it is
    /// not shared with already, in their current assignment, with the message $3 (null for none);
    /// returns the sharees it is newly shared with.
    static let share = """
        insert into shares (tenant_id, entry_id, author_id, sharee_id, assignment_id, message)
        select current_tenant_id(), $1, current_person_id(), a.adult_id, a.id, $3
        from assignments a
        where a.tenant_id = current_tenant_id() and a.young_person_id = current_person_id() and a.until is null
          and a.adult_id = any($2::uuid[])
        on conflict (tenant_id, entry_id, sharee_id) where unshared_at is null do nothing
        returning sharee_id
        """

    /// What `unshare` asks before writing, in one row: whether the person has the live entry $1,
    /// and the ids among $2 (uuid[]) it is not shared with (no standing share), in their order.
    static let unshareCheck = """
        select
            \(ownsLiveEntry),
            \(idsAmong2(without: """
                select from shares s
                where s.tenant_id = current_tenant_id() and s.author_id = current_person_id()
                  and s.entry_id = $1 and s.sharee_id = x.id and s.unshared_at is null
                """))
        """

    /// The first column of ``shareCheck`` and ``unshareCheck``: whether the person has the live
    /// entry $1.
    private static let ownsLiveEntry = """
        exists (select from entries e
                where e.tenant_id = current_tenant_id() and e.author_id = current_person_id() and e.id = $1
                  and e.archived_at is null)
        """

    /// The second column of ``shareCheck`` and ``unshareCheck``: the ids `x.id` among $2 (uuid[])
    /// for which `query` finds no row, in their order.
    private static func idsAmong2(without query: String) -> String {
        """
        array(select x.id from unnest($2::uuid[]) with ordinality as x (id, ord)
              where not exists (\(query))
              order by x.ord)
        """
    }

    /// Unshares the person's entry $1 with the sharees $2 (uuid[]), or with everyone when $2 is
    /// null; returns the sharees it was unshared with.
    static let unshare = """
        update shares set unshared_at = clock_timestamp()
        where tenant_id = current_tenant_id() and author_id = current_person_id() and entry_id = $1
          and unshared_at is null and ($2::uuid[] is null or sharee_id = any($2::uuid[]))
        returning sharee_id
        """

    /// Who each of the person's entries among $1 (uuid[]) is shared with now (a standing share,
    /// made in an assignment that is current), in the order shared: the entry's id, the share's
    /// id, message, shared_at, seen_at, reply, replied_at, then the sharee's id, role, name and
    /// avatar as the author reads them (their profile's where the author may see it).
    static let sharesOfEntries = standingSharesOfMine + """

          and s.entry_id = any($1::uuid[])
        order by s.shared_at, s.id
        """

    /// The person's standing share $1 of one of their entries, as ``sharesOfEntries`` reads one.
    static let shareOfMine = standingSharesOfMine + """

          and s.id = $1
        """

    /// The standing shares of the person's entries, with their sharees (a constant fragment of
    /// ``sharesOfEntries`` and ``shareOfMine``, which add their conditions).
    private static let standingSharesOfMine = """
        select s.entry_id, s.id, s.message, s.shared_at, s.seen_at, s.reply, s.replied_at,
               p.id, p.role::text, coalesce(pr.display_name, p.display_name), pr.avatar
        from shares s
        join people p on p.tenant_id = s.tenant_id and p.id = s.sharee_id
        left join profiles pr on pr.tenant_id = p.tenant_id and pr.person_id = p.id
        where s.tenant_id = current_tenant_id() and s.author_id = current_person_id() and s.unshared_at is null
          and exists (select from assignments a where a.tenant_id = s.tenant_id and a.id = s.assignment_id and a.until is null)
        """

    /// `storykeep seed`: shares the person's live entries with their current social worker,
    /// newest first, one in every `count / $1` of them (so that the shares spread over the whole
    /// journal), $1 at most; the share's message is one of $2 (text[]) for every tenth and none for
    /// the others, and it is shared an hour after the entry was written. Returns how many.
    static let seedShares = """
        with ranked as (
            select e.id, e.created_at,
                   row_number() over (order by e.day desc, e.created_at desc, e.id desc) - 1 as rank,
                   greatest(1, count(*) over () / $1) as step
            from entries e
            where e.tenant_id = current_tenant_id() and e.author_id = current_person_id() and e.archived_at is null
        ), picked as (
            select id, created_at, rank / step as n from ranked where rank % step = 0 order by rank limit $1
        ), shared as (
            insert into shares (tenant_id, entry_id, author_id, sharee_id, assignment_id, message, shared_at)
            select current_tenant_id(), p.id, current_person_id(), a.adult_id, a.id,
                   case when p.n % 10 = 0 then ($2::text[])[1 + p.n / 10 % cardinality($2::text[])] end,
                   p.created_at + interval '1 hour'
            from picked p
            join assignments a on a.tenant_id = current_tenant_id() and a.young_person_id = current_person_id()
                              and a.relationship = 'SOCIAL_WORKER' and a.until is null
            returning 1
        )
        select count(*) from shared
        """

    /// `storykeep seed`: the person sees every share of theirs but the newest three in ten of
    /// each young person's, a day after it was shared. Returns how many.
    static let seedSeen = """
        with ranked as (
            select s.id, s.shared_at,
                   row_number() over (partition by s.author_id order by s.shared_at desc, s.id desc) as rank,
                   count(*) over (partition by s.author_id) as total
            from shares s
            where s.tenant_id = current_tenant_id() and s.sharee_id = current_person_id()
              and s.unshared_at is null and s.seen_at is null
        ), seen as (
            update shares s set seen_at = r.shared_at + interval '1 day'
            from ranked r
            where s.tenant_id = current_tenant_id() and s.sharee_id = current_person_id() and s.id = r.id
              and r.rank > r.total * 3 / 10
            returning 1
        )
        select count(*) from seen
        """

    // MARK: The sharee

    /// What a sharee's statements select (see the top): their shares joined to the entries; each
    /// statement adds its own conditions and order.
    private static let sharedEntries = """
        select e.id, e.day, e.kind, e.body, e.mood, e.background, e.suggestion, e.created_at, e.updated_at, e.archived_at,
               s.id, s.message, s.shared_at, s.seen_at, s.reply, s.replied_at, e.updated_at > s.shared_at
        from shares s
        join entries e on e.tenant_id = s.tenant_id and e.id = s.entry_id
        where s.tenant_id = current_tenant_id() and s.sharee_id = current_person_id()

        """

    /// Whether the young person $1 is one the person looks after now (assigned, not switched off).
    static let looksAfter = """
        select exists (select from assignments a
                       join people p on p.tenant_id = a.tenant_id and p.id = a.young_person_id
                       where a.tenant_id = current_tenant_id() and a.adult_id = current_person_id()
                         and a.young_person_id = $1 and a.until is null and p.disabled_at is null)
        """

    /// A page of what the young person $1 shared with the person, newest first: by when shared,
    /// then by id.
    ///
    /// $2, $3 the position the page starts after (`(shared_at, id)`: the cursor's, or
    /// `SharePosition.pastNewest` for the first page: always values, so that they bound the backward
    /// scan of `shares_inbox` in any plan); $4 the most rows.
    static let sharedPage = sharedEntries + """
          and s.author_id = $1 and s.unshared_at is null and e.archived_at is null
          and (s.shared_at, s.id) < ($2::timestamptz, $3::uuid)
        order by s.shared_at desc, s.id desc
        limit $4
        """

    /// ``sharedPage``, of the shares the person has not seen yet (over `shares_unseen`).
    static let sharedUnseenPage = sharedEntries + """
          and s.author_id = $1 and s.unshared_at is null and s.seen_at is null and e.archived_at is null
          and (s.shared_at, s.id) < ($2::timestamptz, $3::uuid)
        order by s.shared_at desc, s.id desc
        limit $4
        """

    /// The share $1 of the person's, with its entry, while it stands.
    static let sharedByID = sharedEntries + """
          and s.id = $1 and s.unshared_at is null and e.archived_at is null
        """

    /// How many of the shares of each of the young people $1 (uuid[]) the person has not seen:
    /// the young person's id and the count, for those with any.
    static let unseenCounts = """
        select s.author_id, count(*)
        from shares s
        where s.tenant_id = current_tenant_id() and s.sharee_id = current_person_id()
          and s.author_id = any($1::uuid[]) and s.unshared_at is null and s.seen_at is null
        group by s.author_id
        """

    /// Marks the person's standing share $1 seen, unless it was already. One row while the share
    /// stands: its entry and author, whether it was newly seen, and the person's name as the
    /// author reads it.
    static let markSeen = """
        with seen as (
            update shares s set seen_at = clock_timestamp()
            where s.tenant_id = current_tenant_id() and s.sharee_id = current_person_id() and s.id = $1
              and s.unshared_at is null and s.seen_at is null
            returning s.id
        )
        select s.entry_id, s.author_id, exists (select from seen),
               (select coalesce(pr.display_name, p.display_name)
                from people p left join profiles pr on pr.tenant_id = p.tenant_id and pr.person_id = p.id
                where p.tenant_id = current_tenant_id() and p.id = current_person_id())
        from shares s
        where s.tenant_id = current_tenant_id() and s.sharee_id = current_person_id() and s.id = $1
          and s.unshared_at is null
        """

    /// Writes $2 as the person's reply to their standing share $1, marking it seen if it was
    /// not. One row while the share stands: its entry and author, whether it was newly seen, and
    /// the person's name as the author reads it.
    static let reply = """
        with replied as (
            update shares s set reply = $2, replied_at = clock_timestamp(), seen_at = coalesce(s.seen_at, clock_timestamp())
            where s.tenant_id = current_tenant_id() and s.sharee_id = current_person_id() and s.id = $1
              and s.unshared_at is null
            returning s.id, s.entry_id, s.author_id
        )
        select r.entry_id, r.author_id,
               (select s.seen_at is null from shares s where s.tenant_id = current_tenant_id() and s.id = r.id),
               (select coalesce(pr.display_name, p.display_name)
                from people p left join profiles pr on pr.tenant_id = p.tenant_id and pr.person_id = p.id
                where p.tenant_id = current_tenant_id() and p.id = current_person_id())
        from replied r
        """
}
