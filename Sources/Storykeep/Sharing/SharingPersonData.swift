import Foundation
public import StorykeepCore

extension SharingModule {
    /// The module's part of a person's data export: shares.json.
    public func personData(_ subject: PersonDataSubject) async throws -> [PersonDataFile] {
        [
            try await subject.json("shares.json", about: "Entries you shared with an adult (or that were shared with you): who with, your message, when they saw it, their reply, and when it was unshared.", SharingPersonData.shares)
        ]
    }
}

/// The SQL of the module's part of a data export, in the person's own context; $1 the person.
enum SharingPersonData {
    /// shares.json: the rows of the person $1, as JSON.
    static let shares = """
        select jsonb_pretty(coalesce(jsonb_agg(to_jsonb(x) order by x."sharedAt"), '[]'::jsonb)) from (
            select s.id, s.entry_id as "entryId", s.author_id as "sharedById", s.sharee_id as "sharedWithId", s.message,
                   s.shared_at as "sharedAt", s.seen_at as "seenAt", s.reply, s.replied_at as "repliedAt", s.unshared_at as "unsharedAt"
            from shares s where s.tenant_id = current_tenant_id() and (s.author_id = $1 or s.sharee_id = $1)
        ) x
        """
}
