public import StorykeepCore

extension SocialModule {
    /// social-profile.json, posts.json, comments.json, reactions.json, friends.json, blocks.json,
    /// groups.json, reports.json, suspensions.json of a person's data export, read in their own
    /// context ($1 the person). Other people appear by id only; who reported them is not theirs.
    public var personDataFiles: [PersonDataQuery] {
        [
            .object("social-profile.json", about: "Your profile on the agency's social space: the name you show there, your bio and interests, and whether it is private or findable.", rows: """
                select s.display_name as "displayName", s.bio, s.interests, s.private, s.discoverable,
                       s.created_at as "createdAt", s.updated_at as "updatedAt"
                from social_profiles s where s.tenant_id = current_tenant_id() and s.person_id = $1
                """),
            .array("posts.json", about: "Your posts: what you wrote, who could see it, and whether it was edited, deleted or taken down. Pictures are named by their id: see the media folder.", orderedBy: #"x."createdAt", x.id"#, rows: """
                select p.id, p.text, p.link, p.group_id as "groupId", p.visibility, p.status,
                       p.created_at as "createdAt", p.edited_at as "editedAt", p.deleted_at as "deletedAt",
                       coalesce((select jsonb_agg(pm.media_id) from social_post_media pm
                                 where pm.tenant_id = p.tenant_id and pm.post_id = p.id), '[]'::jsonb) as "fileIds"
                from social_posts p where p.tenant_id = current_tenant_id() and p.author_id = $1
                """),
            .array("comments.json", about: "Your comments on posts: what you wrote, on which post (an id), and whether it was deleted or taken down.", orderedBy: #"x."createdAt", x.id"#, rows: """
                select c.id, c.post_id as "postId", c.text, c.status, c.created_at as "createdAt", c.deleted_at as "deletedAt"
                from social_comments c where c.tenant_id = current_tenant_id() and c.author_id = $1
                """),
            .array("reactions.json", about: "The reactions you gave to posts (an id for each post).", orderedBy: #"x."at", x."postId""#, rows: """
                select r.post_id as "postId", r.kind, r.created_at as "at"
                from social_reactions r where r.tenant_id = current_tenant_id() and r.person_id = $1
                """),
            .array("friends.json", about: "Your friends and friend requests, sent and received: the other person's id, when it was asked and when it was accepted.", orderedBy: #"x."requestedAt", x.id"#, rows: """
                select f.id, case when f.requester_id = $1 then 'SENT' else 'RECEIVED' end as "request",
                       case when f.requester_id = $1 then f.addressee_id else f.requester_id end as "personId",
                       f.requested_at as "requestedAt", f.accepted_at as "acceptedAt"
                from social_friendships f where f.tenant_id = current_tenant_id() and $1 in (f.requester_id, f.addressee_id)
                """),
            .array("blocks.json", about: "The people you blocked (an id each) and when.", orderedBy: #"x."at""#, rows: """
                select b.blocked_id as "personId", b.created_at as "at"
                from social_blocks b where b.tenant_id = current_tenant_id() and b.blocker_id = $1
                """),
            .array("groups.json", about: "The groups you joined (an id each) and when.", orderedBy: #"x."joinedAt""#, rows: """
                select g.group_id as "groupId", g.joined_at as "joinedAt"
                from social_group_members g where g.tenant_id = current_tenant_id() and g.person_id = $1
                """),
            .array("reports.json", about: "The posts and comments you reported, why, and what the agency decided.", orderedBy: #"x."reportedAt", x.id"#, rows: """
                select r.id, r.post_id as "postId", r.comment_id as "commentId", r.reason, r.text,
                       r.created_at as "reportedAt", r.resolved_at as "resolvedAt", r.resolution
                from social_reports r where r.tenant_id = current_tenant_id() and r.reporter_id = $1
                """),
            .array("suspensions.json", about: "Times the agency stopped you posting for a while: until when, and why.", orderedBy: #"x."at""#, rows: """
                select s.until, s.reason, s.created_at as "at"
                from social_suspensions s where s.tenant_id = current_tenant_id() and s.person_id = $1
                """),
        ]
    }
}
