public import StorykeepCore

extension CaseloadModule {
    /// assignments.json of a person's data export, read in their own context ($1 the person).
    public var personDataFiles: [PersonDataQuery] {
        [
            .array("assignments.json", about: "The adults who look after you (or, for adults, the young people you look after): who, how (social worker or carer), from when and until when.", orderedBy: "x.since", rows: """
                select a.id, a.relationship, a.young_person_id as "youngPersonId", a.adult_id as "adultId",
                       (select p.display_name from people p where p.tenant_id = a.tenant_id
                         and p.id = case when a.young_person_id = $1 then a.adult_id else a.young_person_id end) as "withName",
                       a.since, a.until
                from assignments a where a.tenant_id = current_tenant_id() and (a.young_person_id = $1 or a.adult_id = $1)
                """)
        ]
    }
}
