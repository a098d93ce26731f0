/// The SQL of `ProfileStore`: the person's own profile (`profiles`, no row until they first
/// change something). Values only as the parameters listed above each statement.
enum ProfileStatements {
    /// The person's profile in one row: the name the app greets them by (their own choice, or
    /// their name in the agency's records), avatar, avatar file, colours (jsonb), mood icons
    /// (jsonb, null when they chose none), entry backgrounds (jsonb), theme, mood icon set and
    /// language (Migrations/0041_profile_language.sql).
    static let profile = """
        select coalesce(pr.display_name, pe.display_name), pr.avatar, pr.avatar_media_id,
               coalesce(pr.colours, '{}'), pr.mood_icons, coalesce(pr.entry_backgrounds, '[]'),
               pr.theme, pr.mood_icon_set, pr.language
        from people pe
        left join profiles pr on pr.tenant_id = pe.tenant_id and pr.person_id = pe.id
        where pe.tenant_id = current_tenant_id() and pe.id = current_person_id()
        """

    /// The language the person chose, if any (no row: none).
    static let language = """
        select language from profiles where tenant_id = current_tenant_id() and person_id = current_person_id()
        """

    /// Sets the person's language to $1 (null: none); their profile row exists (``update`` ran first).
    static let setLanguage = """
        update profiles set language = $1, updated_at = clock_timestamp()
        where tenant_id = current_tenant_id() and person_id = current_person_id()
        """

    /// Whether $1 is one of the person's image files.
    static let isOwnImage = """
        select exists (select from media m where m.tenant_id = current_tenant_id()
                         and m.owner_id = current_person_id() and m.id = $1 and m.content_type like 'image/%')
        """

    /// Writes the person's profile, each null parameter keeping the current value (or the
    /// default, for a new row).
    ///
    /// $1 display name, $2 avatar, $3 avatar file id, $4 colours (jsonb), $5 mood icons (jsonb),
    /// $6 entry backgrounds (jsonb), $7 theme, $8 mood icon set.
    static let update = """
        insert into profiles as p (tenant_id, person_id, display_name, avatar, avatar_media_id, colours, mood_icons,
                                   entry_backgrounds, theme, mood_icon_set, updated_at)
        values (current_tenant_id(), current_person_id(), $1, $2, $3, coalesce($4::jsonb, '{}'), $5::jsonb,
                coalesce($6::jsonb, '[]'), $7, $8, clock_timestamp())
        on conflict (tenant_id, person_id) do update set
            display_name = coalesce($1, p.display_name), avatar = coalesce($2, p.avatar),
            avatar_media_id = coalesce($3, p.avatar_media_id), colours = coalesce($4::jsonb, p.colours),
            mood_icons = coalesce($5::jsonb, p.mood_icons), entry_backgrounds = coalesce($6::jsonb, p.entry_backgrounds),
            theme = coalesce($7, p.theme), mood_icon_set = coalesce($8, p.mood_icon_set),
            updated_at = clock_timestamp()
        """
}
