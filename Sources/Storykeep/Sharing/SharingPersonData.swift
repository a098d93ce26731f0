public import StorykeepCore

extension SharingModule {
    /// shares.json of a person's data export, read in their own context ($1 the person).
    public var personDataFiles: [PersonDataQuery] {
        [
            .array("shares.json", about: "Entries you shared with an adult (or that were shared with you): who with, your message, when they saw it, their reply, and when it was unshared.", orderedBy: #"x."sharedAt""#, rows: """
                select s.id, s.entry_id as "entryId", s.author_id as "sharedById", s.sharee_id as "sharedWithId", s.message,
                       s.shared_at as "sharedAt", s.seen_at as "seenAt", s.reply, s.replied_at as "repliedAt", s.unshared_at as "unsharedAt"
                from shares s where s.tenant_id = current_tenant_id() and (s.author_id = $1 or s.sharee_id = $1)
                """)
        ]
    }
}
