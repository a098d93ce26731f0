import Foundation
public import StorykeepCore

extension CaseloadModule {
    /// The module's part of a person's data export: assignments.json.
    public func personData(_ subject: PersonDataSubject) async throws -> [PersonDataFile] {
        [
            try await subject.json("assignments.json", about: "The adults who look after you (or, for adults, the young people you look after): who, how (social worker or carer), from when and until when.", CaseloadPersonData.assignments)
        ]
    }
}

/// The SQL of the module's part of a data export, in the person's own context; $1 the person.
enum CaseloadPersonData {
    /// assignments.json: the rows of the person $1, as JSON.
    static let assignments = """
        select jsonb_pretty(coalesce(jsonb_agg(to_jsonb(x) order by x.since), '[]'::jsonb)) from (
            select a.id, a.relationship, a.young_person_id as "youngPersonId", a.adult_id as "adultId",
                   (select p.display_name from people p where p.tenant_id = a.tenant_id
                     and p.id = case when a.young_person_id = $1 then a.adult_id else a.young_person_id end) as "withName",
                   a.since, a.until
            from assignments a where a.tenant_id = current_tenant_id() and (a.young_person_id = $1 or a.adult_id = $1)
        ) x
        """
}
