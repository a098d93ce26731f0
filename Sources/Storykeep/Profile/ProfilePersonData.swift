public import StorykeepCore

extension ProfileModule {
    /// profile.json of a person's data export, read in their own context ($1 the person).
    public var personDataFiles: [PersonDataQuery] {
        [
            .object("profile.json", about: "How you set up your app: the name you chose to be called, your picture, colours, mood icons, backgrounds and language.", rows: """
                select p.display_name as "displayName", p.avatar, p.avatar_media_id as "avatarFileId", p.colours,
                       p.mood_icons as "moodIcons", p.entry_backgrounds as "entryBackgrounds", p.language, p.updated_at as "updatedAt"
                from profiles p where p.tenant_id = current_tenant_id() and p.person_id = $1
                """)
        ]
    }
}
