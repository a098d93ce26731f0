/// The SQL of the caseload: what `Caseload` reads and `AssignmentAdmin` writes. Values only as
/// the parameters listed above each statement.
///
/// A statement that returns people selects four columns for each, which `CaseloadRows.person`
/// reads: their id, their role, the name the reader may see (their profile's where the policies
/// of Migrations/0010_caseload.sql show the reader that profile, else the name in the agency's
/// records) and their profile's avatar.
enum CaseloadStatements {
    // MARK: Reading

    /// The current assignments of the young person $1 to adults not switched off: each one's
    /// id, relationship and start, then the adult; social workers first, then carers, then other
    /// professionals, each by name (ICU's root collation).
    static let currentAdults = currentAssignments(of: "young_person_id", with: "adult_id", orderFirstBy: "a.relationship, ")

    /// The current assignments of the adult $1 to young people not switched off: each one's id,
    /// relationship and start, then the young person; by name (ICU's root collation).
    static let currentYoungPeople = currentAssignments(of: "adult_id", with: "young_person_id", orderFirstBy: "")

    /// The current assignments whose column `own` is $1 to people not switched off (the person
    /// in the column `other`): each one's id, relationship and start, then that person; in the
    /// order `orderFirstBy` (a prefix of the ORDER BY, ending with a comma, or empty), then by
    /// that person's name (ICU's root collation).
    private static func currentAssignments(of own: String, with other: String, orderFirstBy: String) -> String {
        """
        select a.id, a.relationship::text, a.since,
               p.id, p.role::text, coalesce(pr.display_name, p.display_name), pr.avatar
        from assignments a
        join people p on p.tenant_id = a.tenant_id and p.id = a.\(other)
        left join profiles pr on pr.tenant_id = p.tenant_id and pr.person_id = p.id
        where a.tenant_id = current_tenant_id() and a.\(own) = $1 and a.until is null
          and p.disabled_at is null
        order by \(orderFirstBy)coalesce(pr.display_name, p.display_name) collate "und-x-icu", p.id
        """
    }

    /// The assignment $1, or every assignment of the young person $2, current and ended (the
    /// other parameter null), newest first: each one's id, relationship, start and end, then the
    /// young person, the adult, the admin who assigned and the admin who ended it (the last two
    /// all null when there is none: the tenant's operator, or not ended).
    static let assignments = """
        select a.id, a.relationship::text, a.since, a.until,
               yp.id, yp.role::text, coalesce(ypr.display_name, yp.display_name), ypr.avatar,
               ad.id, ad.role::text, coalesce(adr.display_name, ad.display_name), adr.avatar,
               ab.id, ab.role::text, coalesce(abr.display_name, ab.display_name), abr.avatar,
               eb.id, eb.role::text, coalesce(ebr.display_name, eb.display_name), ebr.avatar
        from assignments a
        join people yp on yp.tenant_id = a.tenant_id and yp.id = a.young_person_id
        left join profiles ypr on ypr.tenant_id = yp.tenant_id and ypr.person_id = yp.id
        join people ad on ad.tenant_id = a.tenant_id and ad.id = a.adult_id
        left join profiles adr on adr.tenant_id = ad.tenant_id and adr.person_id = ad.id
        left join people ab on ab.tenant_id = a.tenant_id and ab.id = a.assigned_by
        left join profiles abr on abr.tenant_id = ab.tenant_id and abr.person_id = ab.id
        left join people eb on eb.tenant_id = a.tenant_id and eb.id = a.ended_by
        left join profiles ebr on ebr.tenant_id = eb.tenant_id and ebr.person_id = eb.id
        where a.tenant_id = current_tenant_id() and (a.id = $1 or a.young_person_id = $2)
        order by a.since desc, a.id desc
        """

    // MARK: Assigning

    /// The people $1 (uuid[]) of the tenant: each one's id, role, and whether they are switched off.
    static let people = """
        select p.id, p.role::text, p.disabled_at is not null from people p
        where p.tenant_id = current_tenant_id() and p.id = any($1::uuid[])
        """

    /// Assigns the adult $2 to the young person $1 as $3 (an `assignment_relationship`) from now,
    /// in the name of the context's person; returns its id, or no row when the two have a current
    /// assignment already.
    static let assign = """
        insert into assignments (tenant_id, young_person_id, adult_id, relationship, assigned_by)
        values (current_tenant_id(), $1, $2, $3::assignment_relationship, current_person_id())
        on conflict (tenant_id, young_person_id, adult_id) where until is null do nothing
        returning id
        """

    /// Ends the assignment $1 now, in the name of the context's person; one row, or none when
    /// there is no such assignment or it has ended already.
    static let end = """
        update assignments set until = clock_timestamp(), ended_by = current_person_id()
        where tenant_id = current_tenant_id() and id = $1 and until is null
        """

    // MARK: Seeding

    /// `storykeep seed`: assigns the adults $2 (uuid[]) to the young people $1 (uuid[]), pair by
    /// pair, as $3 (`assignment_relationship`[]), in the name of the context's person (the
    /// tenant's operator: none); returns how many it assigned.
    static let seedAssignments = """
        with assigned as (
            insert into assignments (tenant_id, young_person_id, adult_id, relationship, assigned_by)
            select current_tenant_id(), pair.young, pair.adult, pair.relationship::assignment_relationship, current_person_id()
            from unnest($1::uuid[], $2::uuid[], $3::text[]) as pair (young, adult, relationship)
            returning 1
        )
        select count(*) from assigned
        """
}
