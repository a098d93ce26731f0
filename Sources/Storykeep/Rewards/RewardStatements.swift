/// The SQL of `RewardStore`: a young person's balance, achievements, history and unlocks, read
/// (and unlocks written) as the person the transaction runs as; and the balances of the young
/// people an adult looks after, where the policies of Migrations/0015_rewards.sql let them see
/// them. Values only as the parameters listed above each statement.
enum RewardStatements {
    // MARK: Reading

    /// The person's balance: the sum of their ledger, from the `star_ledger_history` index.
    static let balance = """
        select coalesce(sum(l.stars), 0)::int from star_ledger l
        where l.tenant_id = current_tenant_id() and l.person_id = current_person_id()
        """

    /// The balances of the people $1 (uuid[]) whose ledger the reader may see (their own, or a
    /// young person's they look after where the tenant shows stars to the team): person, stars.
    /// Someone whose ledger they may not see has no row, as someone with no stars yet.
    static let balances = """
        select l.person_id, sum(l.stars)::int from star_ledger l
        where l.tenant_id = current_tenant_id() and l.person_id = any($1::uuid[])
        group by l.person_id
        """

    /// The achievements the person earned, oldest first: id, name, description, icon, bonus, when.
    static let achievements = """
        select a.achievement_id, a.name, a.description, a.icon, a.stars, a.earned_at from reward_achievements a
        where a.tenant_id = current_tenant_id() and a.person_id = current_person_id()
        order by a.earned_at, a.achievement_id
        """

    /// A page of the person's ledger, newest first, over the `star_ledger_history` index: id,
    /// stars, cause, what paid, entry, day, when (exact, for the position).
    ///
    /// $1, $2 the position the page starts after, `(created_at, id)`: the cursor's, or
    /// `StarChangePosition.pastNewest` for the first page (always values, so that they bound the
    /// index's backward scan in any plan); $3 the most rows.
    static let historyPage = """
        select l.id, l.stars, l.cause, l.source_id, l.entry_id, l.day, l.created_at from star_ledger l
        where l.tenant_id = current_tenant_id() and l.person_id = current_person_id()
          and (l.created_at, l.id) < ($1::timestamptz, $2::uuid)
        order by l.created_at desc, l.id desc
        limit $3
        """

    /// The ids of the unlockables the person bought.
    static let unlocked = """
        select l.source_id from star_ledger l
        where l.tenant_id = current_tenant_id() and l.person_id = current_person_id() and l.cause = 'unlock'
        """

    // MARK: Spending

    /// Waits for, then holds until the transaction ends, the lock on the person's stars that
    /// every spending takes first, so that the balance ``unlock`` then reads, in a statement of
    /// its own (a snapshot taken after the lock), has every earlier spending in it.
    static let lockStars = """
        select pg_advisory_xact_lock(hashtextextended('storykeep.stars:' || current_tenant_id() || ':' || current_person_id(), 0))
        """

    /// Spends $2 stars (more than 0) on the unlockable $1, on the day $3, unless the person has
    /// it already or holds fewer than $2. One row: their balance before, whether they had it
    /// already, whether it was bought now. Run after ``lockStars``.
    static let unlock = """
        with state as (
            select coalesce(sum(l.stars), 0)::int as balance,
                   coalesce(bool_or(l.cause = 'unlock' and l.source_id = $1), false) as unlocked
            from star_ledger l
            where l.tenant_id = current_tenant_id() and l.person_id = current_person_id()
        ), spent as (
            insert into star_ledger (tenant_id, person_id, cause, source_id, day, stars)
            select current_tenant_id(), current_person_id(), 'unlock', $1, $3, -$2::int
            from state s
            where not s.unlocked and s.balance >= $2
            on conflict (tenant_id, person_id, cause, source_id) where cause in ('achievement', 'unlock') do nothing
            returning 1
        )
        select s.balance, s.unlocked, exists (select from spent) from state s
        """

    // MARK: Seeding

    /// The person's live entries written in the $1 days up to their last one, oldest first: id,
    /// kind, the day it is about, when it was written. What `storykeep seed` pays for.
    static let seedJournal = """
        select e.id, e.kind, e.day, e.created_at from entries e
        where e.tenant_id = current_tenant_id() and e.author_id = current_person_id() and e.archived_at is null
          and e.created_at > (select max(l.created_at) from entries l
                              where l.tenant_id = current_tenant_id() and l.author_id = current_person_id())
                             - make_interval(days => $1)
        order by e.created_at, e.id
        """
}
