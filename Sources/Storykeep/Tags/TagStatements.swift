/// The SQL of `TagStore`: the person's own tags, and the search text (`entries.tag_names`) of
/// the entries carrying them. Values only as the parameters listed above each statement.
enum TagStatements {
    /// The person's tags, id and name, in alphabetical order (ICU's root collation).
    static let tags = """
        select t.id, t.name from tags t
        where t.tenant_id = current_tenant_id() and t.owner_id = current_person_id()
        order by t.name collate "und-x-icu", t.id
        """

    /// The tags of the entries $1 (uuid[]) that the person may read: each entry's id, then the
    /// tag's id and name, in alphabetical order.
    static let tagsOfEntries = """
        select et.entry_id, t.id, t.name
        from entry_tags et join tags t on t.tenant_id = et.tenant_id and t.id = et.tag_id
        where et.tenant_id = current_tenant_id() and et.entry_id = any($1::uuid[])
        order by t.name collate "und-x-icu", t.id
        """

    /// A tag of the person's named $1; returns its id, or no row when they have a tag of that
    /// name in any case already.
    static let createTag = """
        insert into tags (tenant_id, owner_id, name) values (current_tenant_id(), current_person_id(), $1)
        on conflict (tenant_id, owner_id, name_key) do nothing
        returning id
        """

    /// Whether the person has the tag $1, and whether another of their tags is named $2 in
    /// any case.
    static let renameCheck = """
        select
            exists (select from tags t where t.tenant_id = current_tenant_id()
                      and t.owner_id = current_person_id() and t.id = $1),
            exists (select from tags t where t.tenant_id = current_tenant_id()
                      and t.owner_id = current_person_id() and t.id <> $1
                      and t.name_key = lower($2::text collate "und-x-icu"))
        """

    /// Names the person's tag $1 $2.
    static let rename = """
        update tags set name = $2
        where tenant_id = current_tenant_id() and owner_id = current_person_id() and id = $1
        """

    /// Deletes the person's tag $1 (its links go with it); one row, or none when they have no such tag.
    static let deleteTag = """
        delete from tags where tenant_id = current_tenant_id() and owner_id = current_person_id() and id = $1
        """

    /// Rewrites `tag_names` of the person's entries tagged $1 (archived ones included) from
    /// their tags' names, leaving out the tag $2 (null: none).
    static let refreshTagNames = """
        update entries e set tag_names = coalesce(
            (select string_agg(t.name, ' ' order by t.name_key)
             from entry_tags et join tags t on t.tenant_id = et.tenant_id and t.id = et.tag_id
             where et.tenant_id = e.tenant_id and et.entry_id = e.id and t.id is distinct from $2), '')
        where e.tenant_id = current_tenant_id() and e.author_id = current_person_id()
          and e.id in (select et.entry_id from entry_tags et
                       where et.tenant_id = current_tenant_id() and et.tag_id = $1)
        """
}
