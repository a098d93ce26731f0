import StorykeepJournals

/// The SQL of `PostStore`: posts, their files, reactions and comments, and groups. Values only as
/// the parameters listed above each statement; no value is spliced into the text, only the
/// constant fragments of this enum and the table names given to `MediaStatements`. What a person
/// reads is what the policies of Migrations/0033_social_posts.sql let them read (WHO READS A POST
/// there): no statement here repeats that rule, so that it is written once.
package enum PostStatements {
    // MARK: Posts

    /// The columns `PostRows.post` reads, of the post `p`.
    static let postColumns = """
        p.id, p.author_id, p.text, p.link, p.group_id, p.visibility::text, p.status::text, p.created_at, p.edited_at, p.removal_reason,
        p.reshare, p.reshare_of
        """

    /// The posts the person reads, newest first, before the position ($1 timestamptz, $2 uuid); $3
    /// of them. Their own are there as they stand (pending, removed); nobody's deleted.
    static let timeline = pageStatement()

    /// As ``timeline``, of the author $4 alone.
    static let byAuthor = pageStatement(of: "p.author_id = $4")

    /// As ``timeline``, of the group $4 alone.
    static let byGroup = pageStatement(of: "p.group_id = $4")

    /// ``timeline``, of the posts that meet `scope` too (a condition on `p`) when there is one.
    private static func pageStatement(of scope: String? = nil) -> String {
        let scope = scope.map { " and \($0)" } ?? ""
        return """
            select \(postColumns) from social_posts p
            where p.tenant_id = current_tenant_id()\(scope) and p.deleted_at is null and (p.created_at, p.id) < ($1, $2)
            order by p.created_at desc, p.id desc
            limit $3
            """
    }

    /// The post $1, if the person reads it and it is not deleted.
    static let byID = """
        select \(postColumns) from social_posts p
        where p.tenant_id = current_tenant_id() and p.id = $1 and p.deleted_at is null
        """

    /// The posts among $1 (uuid[]) the person reads that are published and not deleted: what a
    /// reshare shows of its original (anything else is unavailable).
    static let publishedByIDs = """
        select \(postColumns) from social_posts p
        where p.tenant_id = current_tenant_id() and p.id = any($1::uuid[]) and p.status = 'PUBLISHED' and p.deleted_at is null
        """

    /// The person reshares the post $4 with the comment $1, to the group $2 or the visibility $3
    /// (the audience rule and what they may reshare: the trigger of Migrations/0043_social_reshares.sql).
    static let reshare = """
        insert into social_posts as p (tenant_id, author_id, text, group_id, visibility, reshare, reshare_of)
        values (current_tenant_id(), current_person_id(), $1, $2, $3::text::social_post_visibility, true, $4)
        returning \(postColumns)
        """

    /// The ids among $1 (uuid[]) that are no file of the person's own, in their order (messages'
    /// files are checked by it too).
    package static let notMyMedia = """
        select array(select x.id from unnest($1::uuid[]) with ordinality as x (id, ord)
                     where not exists (select from media m
                                       where m.tenant_id = current_tenant_id() and m.id = x.id and m.owner_id = current_person_id())
                     order by x.ord)
        """

    /// Whether the person is a member of the group $1.
    static let isMember = """
        select $1 in (select current_social_groups())
        """

    /// A post of the person's: text $1, link $2, group $3, visibility $4. Published, or held for
    /// review when it holds a blocked word (the trigger of Migrations/0034_social_moderation.sql).
    static let create = """
        insert into social_posts as p (tenant_id, author_id, text, link, group_id, visibility)
        values (current_tenant_id(), current_person_id(), $1, $2, $3, $4::text::social_post_visibility)
        returning \(postColumns)
        """

    /// Attaches the person's files $2 (uuid[]), in that order, to their post $1.
    static let attachMedia = MediaStatements.attach(to: "social_post_media", owner: "post_id", person: "author_id")

    /// Replaces the text $2 and link $3 of the person's post $1 (not deleted, not removed), marked
    /// edited (and held for review when it now holds a blocked word: the trigger).
    static let edit = """
        update social_posts p set text = $2, link = $3, edited_at = clock_timestamp()
        where p.tenant_id = current_tenant_id() and p.id = $1 and p.author_id = current_person_id()
          and p.deleted_at is null and p.status <> 'REMOVED'
        returning \(postColumns)
        """

    /// Deletes the person's post $1; a row when there was one.
    static let delete = """
        update social_posts p set deleted_at = clock_timestamp()
        where p.tenant_id = current_tenant_id() and p.id = $1 and p.author_id = current_person_id() and p.deleted_at is null
        returning p.id
        """

    /// The files of the posts among $1 (uuid[]) the person reads, in order: the post's id, then the
    /// columns `MediaRows.decode` reads.
    static let mediaOfPosts = MediaStatements.attached(in: "social_post_media", owner: "post_id")

    // MARK: Reactions

    /// The reactions to the posts among $1 (uuid[]) the person reads (none of the blocked), by
    /// post and kind: post, kind, how many, whether one is the person's.
    static let reactionsOfPosts = """
        select r.post_id, r.kind::text, count(*), bool_or(r.person_id = current_person_id())
        from social_reactions r
        where r.tenant_id = current_tenant_id() and r.post_id = any($1::uuid[])
        group by r.post_id, r.kind
        order by r.post_id, r.kind
        """

    /// The person reacts to the post $1 with $2 (a kind), or changes their reaction; whether it is
    /// their first reaction to it.
    static let react = """
        insert into social_reactions (tenant_id, post_id, person_id, kind)
        values (current_tenant_id(), $1, current_person_id(), $2::text::social_reaction_kind)
        on conflict (tenant_id, post_id, person_id) do update set kind = excluded.kind, created_at = clock_timestamp()
        returning xmax = 0
        """

    /// Takes back the person's reaction to the post $1.
    static let unreact = """
        delete from social_reactions
        where tenant_id = current_tenant_id() and post_id = $1 and person_id = current_person_id()
        """

    // MARK: Comments

    /// The columns `PostRows.comment` reads, of the comment `c`.
    static let commentColumns = """
        c.id, c.post_id, c.author_id, c.text, c.status::text, c.created_at
        """

    /// How many comments the person reads on each of the posts among $1 (uuid[]).
    static let commentCounts = """
        select c.post_id, count(*) from social_comments c
        where c.tenant_id = current_tenant_id() and c.post_id = any($1::uuid[]) and c.deleted_at is null
        group by c.post_id
        """

    /// The comments the person reads on the post $4, newest first, before ($1, $2); $3 of them.
    static let comments = """
        select \(commentColumns) from social_comments c
        where c.tenant_id = current_tenant_id() and c.post_id = $4 and c.deleted_at is null and (c.created_at, c.id) < ($1, $2)
        order by c.created_at desc, c.id desc
        limit $3
        """

    /// A comment of the person's on the post $1: text $2 (held like a post: the trigger).
    static let comment = """
        insert into social_comments as c (tenant_id, post_id, author_id, text)
        values (current_tenant_id(), $1, current_person_id(), $2)
        returning \(commentColumns)
        """

    /// Deletes the person's comment $1; its post when there was one.
    static let deleteComment = """
        update social_comments c set deleted_at = clock_timestamp()
        where c.tenant_id = current_tenant_id() and c.id = $1 and c.author_id = current_person_id() and c.deleted_at is null
        returning c.post_id
        """

    // MARK: Groups

    /// The columns `PostRows.group` reads, of the group `g`.
    static let groupColumns = """
        g.id, g.name, g.description, g.id in (select current_social_groups())
        """

    /// Every group, by name.
    static let groups = """
        select \(groupColumns) from social_groups g
        where g.tenant_id = current_tenant_id()
        order by lower(g.name), g.id
        """

    /// The group $1.
    static let group = """
        select \(groupColumns) from social_groups g
        where g.tenant_id = current_tenant_id() and g.id = $1
        """

    /// A group named $1, described by $2, made by the person; a row unless the name is taken.
    static let createGroup = """
        insert into social_groups (tenant_id, name, description, created_by)
        values (current_tenant_id(), $1, $2, current_person_id())
        on conflict (tenant_id, lower(name)) do nothing
        returning id
        """

    /// The person joins the group $1 (again: nothing changes).
    static let join = """
        insert into social_group_members (tenant_id, group_id, person_id) values (current_tenant_id(), $1, current_person_id())
        on conflict do nothing
        """

    /// The person leaves the group $1.
    static let leave = """
        delete from social_group_members where tenant_id = current_tenant_id() and group_id = $1 and person_id = current_person_id()
        """
}
