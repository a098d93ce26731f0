import Foundation
public import StorykeepCore

extension ProfileModule {
    /// The module's part of a person's data export: profile.json.
    public func personData(_ subject: PersonDataSubject) async throws -> [PersonDataFile] {
        [
            try await subject.json("profile.json", about: "How you set up your app: the name you chose to be called, your picture, colours, mood icons, backgrounds and language.", ProfilePersonData.profile)
        ]
    }
}

/// The SQL of the module's part of a data export, in the person's own context; $1 the person.
enum ProfilePersonData {
    /// profile.json: the rows of the person $1, as JSON.
    static let profile = """
        select jsonb_pretty(coalesce((select to_jsonb(x) from (
            select p.display_name as "displayName", p.avatar, p.avatar_media_id as "avatarFileId", p.colours,
                   p.mood_icons as "moodIcons", p.entry_backgrounds as "entryBackgrounds", p.language, p.updated_at as "updatedAt"
            from profiles p where p.tenant_id = current_tenant_id() and p.person_id = $1
        ) x), '{}'::jsonb))
        """
}
