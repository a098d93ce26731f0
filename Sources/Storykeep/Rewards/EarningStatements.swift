/// The SQL of `Earning`: paying the tenant's rules and awarding achievements, for the young
/// person the transaction runs as. Values only as the parameters listed above each statement; no
/// value is spliced into the text, only the constant fragments at the end that several
/// statements share.
///
/// Each event is one statement, and nothing in it is read, then written on what was read
/// (Migrations/0015_rewards.sql, "NO DOUBLE PAY"): a count or a day's counter is raised by an
/// `INSERT ... ON CONFLICT DO UPDATE`, which locks its row and sees its latest value; a payment is
/// inserted only from the rows such a raise returned, and `ON CONFLICT DO NOTHING` on the
/// ledger's unique indexes keeps it to once per cause. Every statement takes its rows in the same
/// order (the counts, then the rule's day counter, then the ledger), so two at once queue rather
/// than deadlock.
///
/// A rule is given as parallel arrays: ids (text[]), stars (int[]), daily limits (int[], null for
/// none); for check-ins, also the streak length (int[], null for a `checkIn` rule).
enum EarningStatements {
    /// A new entry: raises the counts `entries` and `entries.<kind>`, and pays each `entryCreated`
    /// rule within its daily limit.
    ///
    /// $1 today (date), $2 the entry's id, $3 its kind (`TEXT`, ...), $4 rule ids, $5 their stars,
    /// $6 their daily limits, $7 whether to count the person's distinct tags on their entries
    /// (their tags on at least one entry, archived ones too: when the tenant has an achievement
    /// for them). One row: the stars paid, the count of
    /// entries, the count of entries of the kind, the ids of the achievements the person had
    /// earned (as of the statement's start: a list to skip, not a guard; awarding is), and the
    /// count of distinct tags (null unless asked).
    static let entryCreated = """
        with counted as (
            insert into reward_counts as c (tenant_id, person_id, counter, value)
            select current_tenant_id(), current_person_id(), k.counter, 1
            from unnest(array['entries', 'entries.' || $3::text]) with ordinality as k (counter, position)
            order by k.position
            on conflict (tenant_id, person_id, counter) do update set value = c.value + 1
            returning c.counter, c.value
        ), rules as (
            select r.id, r.stars, r.daily_limit, 'entryCreated' as cause
            from unnest($4::text[], $5::int[], $6::int[]) as r (id, stars, daily_limit)
        ), \(daySlots), \(entryPaid)
        select (select coalesce(sum(stars), 0) from paid)::int,
               (select value from counted where counter = 'entries'),
               (select value from counted where counter <> 'entries'),
               \(earnedAchievements),
               case when $7 then \(tagsOnEntries) end
        """

    /// A check-in: the first of its day records the day with the streak it ends (the day before's
    /// plus one), raises the count `checkIns`, and pays each `checkIn` rule, and each `streak` rule
    /// whose length the streak is a multiple of, within their daily limits. A later check-in of the
    /// same day does nothing.
    ///
    /// $1 the check-in's day (date), $2 rule ids, $3 their stars, $4 their daily limits, $5 their
    /// streak lengths (null for a `checkIn` rule). One row: the stars paid, the streak and the
    /// count of check-ins (both null when the day had been checked in already), and the ids of the
    /// achievements earned (as in ``entryCreated``).
    static let checkIn = """
        with first as (
            insert into reward_check_in_days (tenant_id, person_id, day, streak)
            select current_tenant_id(), current_person_id(), $1,
                   1 + coalesce((select p.streak from reward_check_in_days p
                                 where p.tenant_id = current_tenant_id() and p.person_id = current_person_id()
                                   and p.day = $1::date - 1), 0)
            on conflict (tenant_id, person_id, day) do nothing
            returning streak
        ), \(countedOnce("checkIns")), rules as (
            select r.id, r.stars, r.daily_limit, r.days
            from unnest($2::text[], $3::int[], $4::int[], $5::int[]) as r (id, stars, daily_limit, days), first f
            where r.days is null or f.streak % r.days = 0
        ), \(daySlots), paid as (
            insert into star_ledger (tenant_id, person_id, cause, source_id, day, stars)
            select current_tenant_id(), current_person_id(), case when r.days is null then 'checkIn' else 'streak' end,
                   r.id, $1, r.stars
            from rules r
            where r.daily_limit is null or r.id in (select rule_id from slots)
            on conflict (tenant_id, person_id, cause, source_id, day) where cause in ('checkIn', 'streak') do nothing
            returning stars
        )
        select (select coalesce(sum(stars), 0) from paid)::int,
               (select streak from first),
               (select value from counted),
               \(earnedAchievements)
        """

    /// An entry shared: the first time the entry is shared, raises the count `shares` and pays
    /// each `entryShared` rule within its daily limit; sharing it again does nothing.
    ///
    /// $1 today (date), $2 the entry's id, $3 rule ids, $4 their stars, $5 their daily limits.
    /// One row: the stars paid, the count of shares (null when the entry had paid already), and
    /// the ids of the achievements earned (as in ``entryCreated``).
    static let entryShared = """
        with first as (
            insert into reward_shared_entries (tenant_id, person_id, entry_id)
            values (current_tenant_id(), current_person_id(), $2)
            on conflict (tenant_id, person_id, entry_id) do nothing
            returning entry_id
        ), \(countedOnce("shares")), rules as (
            select r.id, r.stars, r.daily_limit, 'entryShared' as cause
            from unnest($3::text[], $4::int[], $5::int[]) as r (id, stars, daily_limit)
            where exists (select from first)
        ), \(daySlots), \(entryPaid)
        select (select coalesce(sum(stars), 0) from paid)::int,
               (select value from counted),
               \(earnedAchievements)
        """

    /// Awards the achievements given that the person has not earned yet, each kept as described
    /// here, and pays the bonuses; one given with a number of distinct tags only if the person's
    /// tags on their entries reach it (counted once, and only if such a one is still unearned).
    ///
    /// $1 today (date), $2 achievement ids, $3 names, $4 descriptions, $5 icons, $6 bonuses (int[],
    /// 0 for none), $7 the distinct tags each needs (int[], null where the caller decided already).
    /// The achievements newly earned: id, bonus, when.
    static let award = """
        with due as (
            select a.id, a.name, a.description, a.icon, a.stars
            from unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::int[])
                 as a (id, name, description, icon, stars, tags)
            where not exists (select from reward_achievements e
                              where e.tenant_id = current_tenant_id() and e.person_id = current_person_id()
                                and e.achievement_id = a.id)
              and (a.tags is null or a.tags <= \(tagsOnEntries))
        ), earned as (
            insert into reward_achievements (tenant_id, person_id, achievement_id, name, description, icon, stars)
            select current_tenant_id(), current_person_id(), d.id, d.name, d.description, d.icon, d.stars from due d
            on conflict (tenant_id, person_id, achievement_id) do nothing
            returning achievement_id, stars, earned_at
        ), paid as (
            insert into star_ledger (tenant_id, person_id, cause, source_id, day, stars)
            select current_tenant_id(), current_person_id(), 'achievement', e.achievement_id, $1, e.stars
            from earned e where e.stars > 0
            on conflict (tenant_id, person_id, cause, source_id) where cause in ('achievement', 'unlock') do nothing
        )
        select achievement_id, stars, earned_at from earned
        """

    // MARK: Fragments several statements share (constants: no value is spliced into the text)

    /// The CTE `slots`: takes one of today's ($1) payments of each rule of `rules` that has a
    /// daily limit, once something was counted (`counted` returned a row), and returns the ids of
    /// the rules it took one for; a rule whose day is full returns nothing (the conflict's update
    /// does not happen). Raising the day's counter locks its row, so two at once queue.
    private static let daySlots = """
        slots as (
            insert into reward_day_payments as d (tenant_id, person_id, rule_id, day, payments, daily_limit)
            select current_tenant_id(), current_person_id(), r.id, $1, 1, r.daily_limit
            from rules r
            where r.daily_limit is not null and exists (select from counted)
            on conflict (tenant_id, person_id, rule_id, day) do update
                set payments = d.payments + 1, daily_limit = excluded.daily_limit
                where d.payments < excluded.daily_limit
            returning d.rule_id
        )
        """

    /// The CTE `paid` of an entry's rules (`entryCreated`, `entryShared`): pays each rule of
    /// `rules` (whose column `cause` names the event) for the entry $2 on the day $1, if it has no
    /// daily limit or took a slot in `slots`, once per entry and rule; returns the stars paid.
    private static let entryPaid = """
        paid as (
            insert into star_ledger (tenant_id, person_id, cause, source_id, entry_id, day, stars)
            select current_tenant_id(), current_person_id(), r.cause, r.id, $2, $1, r.stars
            from rules r
            where r.daily_limit is null or r.id in (select rule_id from slots)
            on conflict (tenant_id, person_id, cause, source_id, entry_id) where entry_id is not null do nothing
            returning stars
        )
        """

    /// The CTE `counted`: raises the person's count `counter` by one if `first` returned a row
    /// (the first time of what it counts), and returns the new value.
    private static func countedOnce(_ counter: StaticString) -> String {
        """
        counted as (
            insert into reward_counts as c (tenant_id, person_id, counter, value)
            select current_tenant_id(), current_person_id(), '\(counter)', 1 from first
            on conflict (tenant_id, person_id, counter) do update set value = c.value + 1
            returning c.value
        )
        """
    }

    /// The number of the person's tags on at least one of their entries (archived ones too).
    private static let tagsOnEntries = """
        (select count(*)::int from tags t
         where t.tenant_id = current_tenant_id() and t.owner_id = current_person_id()
           and exists (select from entry_tags et where et.tenant_id = t.tenant_id and et.tag_id = t.id))
        """

    /// A column of the statements' row: the ids of the achievements the person had earned.
    private static let earnedAchievements = """
        array(select a.achievement_id from reward_achievements a
              where a.tenant_id = current_tenant_id() and a.person_id = current_person_id())
        """
}
