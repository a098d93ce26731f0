/// The SQL of `CheckInStore`: the day's MOOD entry and the skips, for the person of the
/// transaction. Values only as the parameters listed above each statement.
enum CheckInStatements {
    /// Records the mood $3 for the day $1: inserts the day's MOOD entry or, when it has one (the
    /// `entries_check_in` index), updates it, its text replaced by the note $2 if there is one.
    /// Returns the entry's id.
    static let checkIn = """
        insert into entries (tenant_id, author_id, day, kind, body, mood)
        values (current_tenant_id(), current_person_id(), $1, 'MOOD', $2, $3)
        on conflict (tenant_id, author_id, day) where kind = 'MOOD' and archived_at is null
        do update set mood = excluded.mood, body = coalesce(excluded.body, entries.body), updated_at = clock_timestamp()
        returning id
        """

    /// Records that the person skipped the day $1; once is enough.
    static let skip = """
        insert into check_in_skips (tenant_id, person_id, day)
        values (current_tenant_id(), current_person_id(), $1)
        on conflict do nothing
        """

    /// One row for the day $1: the id and mood of its live MOOD entry (nulls when none), and
    /// whether the person skipped it.
    static let status = """
        select e.id, e.mood,
               exists (select from check_in_skips s where s.tenant_id = current_tenant_id()
                         and s.person_id = current_person_id() and s.day = $1)
        from (select) as one
        left join entries e on e.tenant_id = current_tenant_id() and e.author_id = current_person_id()
             and e.day = $1 and e.kind = 'MOOD' and e.archived_at is null
        """
}
