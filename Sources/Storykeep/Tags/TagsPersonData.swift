public import StorykeepCore

extension TagsModule {
    /// tags.json of a person's data export, read in their own context ($1 the person).
    public var personDataFiles: [PersonDataQuery] {
        [
            .array("tags.json", about: "The tags you made to sort your entries.", orderedBy: "x.name", rows: """
                select t.id, t.name, t.created_at as "createdAt" from tags t where t.tenant_id = current_tenant_id() and t.owner_id = $1
                """)
        ]
    }
}
