import Foundation
public import StorykeepCore

extension TagsModule {
    /// The module's part of a person's data export: tags.json.
    public func personData(_ subject: PersonDataSubject) async throws -> [PersonDataFile] {
        [
            try await subject.json("tags.json", about: "The tags you made to sort your entries.", TagsPersonData.tags)
        ]
    }
}

/// The SQL of the module's part of a data export, in the person's own context; $1 the person.
enum TagsPersonData {
    /// tags.json: the rows of the person $1, as JSON.
    static let tags = """
        select jsonb_pretty(coalesce(jsonb_agg(to_jsonb(x) order by x.name), '[]'::jsonb)) from (
            select t.id, t.name, t.created_at as "createdAt" from tags t where t.tenant_id = current_tenant_id() and t.owner_id = $1
        ) x
        """
}
