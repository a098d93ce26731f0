import Foundation
import GraphQL
import Postgres
import StorykeepCore
import StorykeepJournals
import StorykeepNotifications

/// The social module's posts in the schema: the timeline, a person's and a group's posts, writing,
/// reacting and commenting, and interest groups. Each `Post` field read from the database is a
/// loader, so that a page of posts costs the same few statements whatever its length.
///
/// Reacting and commenting tell the post's author (``reactedKind``, ``commentedKind``; the
/// subject is the `post`), never themselves.
extension SocialModule {
    /// The notification an author gets when someone first reacts to their post.
    public static let reactedKind = "postReaction"
    /// The notification an author gets when someone comments on their post.
    public static let commentedKind = "postComment"
    /// The notification an author gets when someone reshares their post.
    public static let resharedKind = "postReshared"

    static let authors = DataLoader<UUID, SocialProfile?>.inTransaction("Post.author") { ids, _, tx in
        let profiles = try await SocialStore(tx).profiles(ids)
        return ids.map { profiles[$0] }
    }
    static let originals = DataLoader<UUID, Post?>.inTransaction("Post.resharedPost") { ids, _, tx in
        let posts = try await PostStore(tx).published(ids)
        return ids.map { posts[$0] }
    }
    static let mediaOfPosts = DataLoader<UUID, [MediaInfo]>.inTransaction("Post.media") { ids, _, tx in
        let media = try await PostStore(tx).media(ofPosts: ids)
        return ids.map { media[$0] ?? [] }
    }
    static let reactionsOfPosts = DataLoader<UUID, [ReactionCount]>.inTransaction("Post.reactions") { ids, _, tx in
        let reactions = try await PostStore(tx).reactions(toPosts: ids)
        return ids.map { reactions[$0] ?? [] }
    }
    static let commentCounts = DataLoader<UUID, Int>.inTransaction("Post.commentCount") { ids, _, tx in
        let counts = try await PostStore(tx).commentCounts(ofPosts: ids)
        return ids.map { counts[$0] ?? 0 }
    }

    func registerPosts(_ module: inout ModuleRegistry) {
        registerPostFields(&module)
        registerPostReads(&module)
        registerPostWrites(&module)
        registerReactionsAndComments(&module)
        registerGroups(&module)
    }

    private func registerPostFields(_ module: inout ModuleRegistry) {
        module.field("Post.author", .sync { source, _, _, info in
            guard let post = source as? Post else { return nil }
            return Self.authors.load(post.authorID, info)
        })
        module.field("Post.resharedPost", .sync { source, _, _, info in
            guard let original = (source as? Post)?.reshareOf else { return nil }
            return Self.originals.load(original, info)
        })
        module.field("Post.groupId", .sync { source, _, _, _ in (source as? Post)?.groupID?.lowercased })
        module.field("Post.media", .sync { source, _, _, info in
            guard let post = source as? Post else { return [MediaInfo]() }
            return Self.mediaOfPosts.load(post.id, info)
        })
        module.field("Post.reactions", .sync { source, _, _, info in
            guard let post = source as? Post else { return [ReactionCount]() }
            return Self.reactionsOfPosts.load(post.id, info)
        })
        module.field("Post.myReaction", .sync { source, _, _, info in
            guard let post = source as? Post else { return nil }
            return Self.reactionsOfPosts.load(post.id, info).map { ($0 as? [ReactionCount])?.first(where: \.mine)?.kind }
        })
        module.field("Post.commentCount", .sync { source, _, _, info in
            guard let post = source as? Post else { return 0 }
            return Self.commentCounts.load(post.id, info)
        })
        module.field("Comment.author", .sync { source, _, _, info in
            guard let comment = source as? Comment else { return nil }
            return Self.authors.load(comment.authorID, info)
        })
    }

    private func registerPostReads(_ module: inout ModuleRegistry) {
        module.query("timeline", access: .authenticated) { arguments, context in
            try await Self.postPage(.timeline, arguments, context)
        }
        module.query("posts", access: .authenticated) { arguments, context in
            guard let author = arguments["authorId"]?.stringValue.flatMap(UUID.init(uuidString:)) else { throw GraphQLError.notFound() }
            return try await Self.postPage(.author(author), arguments, context)
        }
        module.query("groupPosts", access: .authenticated) { arguments, context in
            let group = try arguments.id("groupId")
            return try await Self.postPage(.group(group), arguments, context)
        }
        module.query("post", access: .authenticated) { arguments, context in
            _ = try Self.participant(context)
            guard let id = arguments["id"]?.stringValue.flatMap(UUID.init(uuidString:)) else { return nil }
            return try await context.transaction { tx in try await PostStore(tx).post(id) }
        }
        module.query("comments", access: .authenticated) { arguments, context in
            _ = try Self.participant(context)
            let postID = try arguments.id("postId")
            let after = try context.cursors.position(after: arguments["after"]?.stringValue, of: CommentPosition.self)
            return try await context.transaction { tx in
                try await PostStore(tx).comments(on: postID, first: arguments["first"]?.intValue ?? 20, after: after)
            }.connection(cursors: context.cursors, node: { $0 })
        }
    }

    /// A page of posts of `scope` for a participant, as a connection.
    private static func postPage(_ scope: PostStore<PostgresTransaction>.Scope, _ arguments: GraphQLObject, _ context: ResolverContext)
        async throws -> [String: any Sendable]
    {
        _ = try participant(context)
        let after = try context.cursors.position(after: arguments["after"]?.stringValue, of: PostPosition.self)
        return try await context.transaction { tx in
            try await PostStore(tx).posts(scope, first: arguments["first"]?.intValue ?? 20, after: after)
        }.connection(cursors: context.cursors, node: { $0 })
    }

    private func registerPostWrites(_ module: inout ModuleRegistry) {
        module.mutation("createPost", access: .authenticated) { arguments, context in
            _ = try Self.participant(context)
            let input = try PostInput(arguments["input"]?.objectValue ?? [:])
            return try await context.transaction { tx in
                try await SocialStore(tx).requireProfile()
                try await ModerationStore(tx).requireNotSuspended()
                try await RateLimits.take("post", limit: context.tenant.file.social.rateLimits.postsPerHour, in: tx)
                return try await PostStore(tx).create(input)
            }
        }
        module.mutation("editPost", access: .authenticated) { arguments, context in
            _ = try Self.participant(context)
            let id = try arguments.id("id")
            let text = try PostInput.text(arguments["text"]?.stringValue, field: "text")
            let link = try PostInput.link(arguments["link"]?.stringValue)
            return try await context.transaction { tx in
                try await ModerationStore(tx).requireNotSuspended()
                return try await PostStore(tx).edit(id, text: text, link: link)
            }
        }
        module.mutation("resharePost", access: .authenticated) { arguments, context in
            let viewer = try Self.participant(context)
            let id = try arguments.id("postId")
            let visibility = arguments["visibility"]?.stringValue.flatMap(PostVisibility.init(rawValue:))
            return try await context.transaction { tx in
                try await SocialStore(tx).requireProfile()
                try await ModerationStore(tx).requireNotSuspended()
                try await RateLimits.take("post", limit: context.tenant.file.social.rateLimits.postsPerHour, in: tx)
                let (reshare, original) = try await PostStore(tx).reshare(id, comment: arguments["comment"]?.stringValue, visibility: visibility)
                try await Self.tellAuthor(of: original, kind: Self.resharedKind, "shared your post", by: viewer, in: tx)
                return reshare
            }
        }
        module.mutation("deletePost", access: .authenticated) { arguments, context in
            _ = try Self.participant(context)
            let id = try arguments.id("id")
            return try await context.transaction { tx in
                try await PostStore(tx).delete(id)
                return true
            }
        }
    }

    private func registerReactionsAndComments(_ module: inout ModuleRegistry) {
        module.mutation("react", access: .authenticated) { arguments, context in
            let viewer = try Self.participant(context)
            let postID = try arguments.id("postId")
            return try await context.transaction { tx in
                let (post, first) = try await PostStore(tx).react(to: postID, kind: arguments["kind"]?.stringValue)
                if first { try await Self.tellAuthor(of: post, kind: Self.reactedKind, "reacted to your post", by: viewer, in: tx) }
                return post
            }
        }
        module.mutation("comment", access: .authenticated) { arguments, context in
            let viewer = try Self.participant(context)
            let postID = try arguments.id("postId")
            return try await context.transaction { tx in
                try await SocialStore(tx).requireProfile()
                try await ModerationStore(tx).requireNotSuspended()
                _ = try PostStore<PostgresTransaction>.commentText(arguments["text"]?.stringValue ?? "")
                try await RateLimits.take("comment", limit: context.tenant.file.social.rateLimits.commentsPerHour, in: tx)
                let (comment, post) = try await PostStore(tx).comment(on: postID, text: arguments["text"]?.stringValue ?? "")
                try await Self.tellAuthor(of: post, kind: Self.commentedKind, "commented on your post", by: viewer, in: tx)
                return comment
            }
        }
        module.mutation("deleteComment", access: .authenticated) { arguments, context in
            _ = try Self.participant(context)
            let id = try arguments.id("id")
            return try await context.transaction { tx in
                try await PostStore(tx).deleteComment(id)
                return true
            }
        }
    }

    private func registerGroups(_ module: inout ModuleRegistry) {
        module.query("groups", access: .authenticated) { _, context in
            if context.viewer?.role != .agencyAdmin { _ = try Self.participant(context) }
            return try await context.transaction { tx in try await PostStore(tx).groups() }
        }
        module.mutation("createGroup", access: .roles([.agencyAdmin])) { arguments, context in
            try await context.transaction { tx in
                try await PostStore(tx).createGroup(name: arguments["name"]?.stringValue ?? "", description: arguments["description"]?.stringValue)
            }
        }
        for (name, member) in [("joinGroup", true), ("leaveGroup", false)] {
            module.mutation(name, access: .authenticated) { arguments, context in
                _ = try Self.participant(context)
                let id = try arguments.id("groupId")
                return try await context.transaction { tx in
                    try await SocialStore(tx).requireProfile()
                    return try await PostStore(tx).setMember(of: id, member)
                }
            }
        }
    }

    /// Tells the author of `post` that `viewer` did what `doing` says, unless it is their own post.
    private static func tellAuthor(of post: Post, kind: String, _ doing: String, by viewer: Viewer, in tx: PostgresTransaction) async throws {
        guard post.authorID != viewer.personID else { return }
        let name = try await SocialStore(tx).profile(viewer.personID)?.displayName ?? "Someone"
        try await Notifications.notify(
            [post.authorID], kind: kind, title: "\(name) \(doing)", subject: NotificationSubject(kind: "post", id: post.id), in: tx)
    }
}
