public import Foundation
import GraphQL
public import Postgres
public import StorykeepCore
import StorykeepJournals

/// Posts, reactions, comments and groups, in the transaction it is given, for the person it runs
/// as. What they read is what the policies of Migrations/0033_social_posts.sql let them read; the
/// store checks input first, so that a refusal is a coded `GraphQLError` and changes nothing:
/// BAD_USER_INPUT naming the field, NOT_FOUND for a post, comment or group they may not see
/// (absent, deleted, blocked either way, not theirs: never told apart).
public struct PostStore<Database: PostgresQueryable>: Sendable {
    /// The transaction the store runs its statements in.
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    // MARK: Reading

    /// What a list of posts is: everyone's the person reads, an author's or a group's.
    public enum Scope: Sendable {
        case timeline
        case author(UUID)
        case group(UUID)
    }

    /// A page of the posts of `scope` the person reads, newest first: one statement. BAD_USER_INPUT
    /// on `first` outside 0 to ``PageSize/max``.
    public func posts(_ scope: Scope, first: Int, after: PostPosition?) async throws -> Page<Post, PostPosition> {
        try PageSize.check(first)
        let position = after ?? .pastNewest
        let rows: PostgresRows
        switch scope {
        case .timeline: rows = try await database.query(PostStatements.timeline, position.moment, position.id, first + 1)
        case .author(let id): rows = try await database.query(PostStatements.byAuthor, position.moment, position.id, first + 1, id)
        case .group(let id): rows = try await database.query(PostStatements.byGroup, position.moment, position.id, first + 1, id)
        }
        return Page(items: try rows.prefix(first).map(PostRows.post), hasNextPage: rows.count > first)
    }

    /// The post `id`, when the person reads it.
    public func post(_ id: UUID) async throws -> Post? {
        try await database.query(PostStatements.byID, id).first.map { try PostRows.post($0).item }
    }

    /// The posts among `postIDs` the person reads that are published and not deleted, by id: what
    /// reshares show of their originals (one statement).
    public func published(_ postIDs: [UUID]) async throws -> [UUID: Post] {
        let rows = try await database.query(PostStatements.publishedByIDs, postIDs.uniqued())
        return Dictionary(uniqueKeysWithValues: try rows.map { let post = try PostRows.post($0).item; return (post.id, post) })
    }

    /// The files of each of `postIDs` the person reads, in order: one statement.
    public func media(ofPosts postIDs: [UUID]) async throws -> [UUID: [MediaInfo]] {
        try await MediaRows.byOwner(PostStatements.mediaOfPosts, postIDs, on: database)
    }

    /// The reactions to each of `postIDs`, by kind: one statement.
    public func reactions(toPosts postIDs: [UUID]) async throws -> [UUID: [ReactionCount]] {
        var reactions: [UUID: [ReactionCount]] = [:]
        for row in try await database.query(PostStatements.reactionsOfPosts, postIDs) {
            reactions[try row.decode(UUID.self, at: 0), default: []].append(
                ReactionCount(kind: try row.decode(String.self, at: 1), count: try row.decode(Int.self, at: 2), mine: try row.decode(Bool.self, at: 3)))
        }
        return reactions
    }

    /// How many comments the person reads on each of `postIDs`: one statement.
    public func commentCounts(ofPosts postIDs: [UUID]) async throws -> [UUID: Int] {
        var counts: [UUID: Int] = [:]
        for row in try await database.query(PostStatements.commentCounts, postIDs) {
            counts[try row.decode(UUID.self, at: 0)] = try row.decode(Int.self, at: 1)
        }
        return counts
    }

    // MARK: Writing

    /// Posts `input` as the person (held for review when it holds a blocked word). BAD_USER_INPUT on
    /// `input.mediaIds` naming a file that is not theirs, on `input.groupId` for a group they are
    /// not a member of.
    public func create(_ input: PostInput) async throws -> Post {
        if !input.mediaIDs.isEmpty,
            let stranger = try await database.query(PostStatements.notMyMedia, input.mediaIDs)[0].decode([UUID].self, at: 0).first
        {
            throw GraphQLError.badUserInput(field: "input.mediaIds", "mediaIds: \(stranger.lowercased) is not one of your files.")
        }
        if let group = input.groupID, !(try await database.query(PostStatements.isMember, group)[0].decode(Bool.self, at: 0)) {
            throw PostInput.notAMember
        }
        let row = try await database.query(
            PostStatements.create, input.text, input.link, input.groupID, input.visibility.rawValue)[0]
        let post = try PostRows.post(row).item
        if !input.mediaIDs.isEmpty {
            try await database.execute(PostStatements.attachMedia, post.id, input.mediaIDs)
        }
        return post
    }

    /// Reshares the post `id` with `comment` (trimmed, blank is none): the reshare, and the
    /// original. Resharing a reshare reshares its original. Its audience is the original's: the
    /// same group, else `visibility` (default the original's), which may narrow AGENCY to FRIENDS
    /// but never widen FRIENDS (Migrations/0043_social_reshares.sql holds the same).
    /// NOT_FOUND for a post the person may not read, or not published; BAD_USER_INPUT on
    /// `comment` past ``TextLimit/socialPostText``, on `visibility` for AGENCY of a FRIENDS post.
    public func reshare(_ id: UUID, comment: String?, visibility: PostVisibility?) async throws -> (reshare: Post, original: Post) {
        let comment = try PostInput.text(comment, field: "comment")
        guard var original = try await published([id])[id] else { throw GraphQLError.notFound() }
        if original.reshare {
            guard let first = original.reshareOf, let found = try await published([first])[first] else { throw GraphQLError.notFound() }
            original = found
        }
        let audience = visibility ?? original.visibility
        if original.groupID == nil && original.visibility == .friends && audience == .agency {
            throw GraphQLError.badUserInput(
                field: "visibility", "visibility: a post for friends is reshared to your friends only, never to the whole agency.")
        }
        let row = try await database.query(PostStatements.reshare, comment, original.groupID, audience.rawValue, original.id)[0]
        return (try PostRows.post(row).item, original)
    }

    /// Replaces the text and link of the person's post `id`, marked edited (held again when it
    /// now holds a blocked word).
    /// NOT_FOUND unless it is theirs, not deleted and not removed; BAD_USER_INPUT on `text` when
    /// nothing would be left (no text, file or link).
    public func edit(_ id: UUID, text: String?, link: String?) async throws -> Post {
        if text == nil && link == nil, try await media(ofPosts: [id])[id]?.isEmpty ?? true {
            throw GraphQLError.badUserInput(field: "text", "text: a post needs text, a file or a link.")
        }
        guard let row = try await database.query(PostStatements.edit, id, text, link).first else {
            throw GraphQLError.notFound()
        }
        return try PostRows.post(row).item
    }

    /// Deletes the person's post `id`. NOT_FOUND unless it is theirs and not deleted.
    public func delete(_ id: UUID) async throws {
        guard try await database.query(PostStatements.delete, id).first != nil else { throw GraphQLError.notFound() }
    }

    /// Reacts to the published post `id` with `kind`, or takes the reaction back when nil: the
    /// post, and whether this was the person's first reaction to it. NOT_FOUND for a post they
    /// may not see, or one not published.
    public func react(to id: UUID, kind: String?) async throws -> (post: Post, first: Bool) {
        guard let post = try await post(id), post.status == .published else { throw GraphQLError.notFound() }
        guard let kind else {
            try await database.execute(PostStatements.unreact, id)
            return (post, false)
        }
        return (post, try await database.query(PostStatements.react, id, kind)[0].decode(Bool.self, at: 0))
    }

    // MARK: Comments

    /// A page of the comments the person reads on the post `postID`, newest first. NOT_FOUND for
    /// a post they may not see.
    public func comments(on postID: UUID, first: Int, after: CommentPosition?) async throws -> Page<Comment, CommentPosition> {
        try PageSize.check(first)
        guard try await post(postID) != nil else { throw GraphQLError.notFound() }
        let position = after ?? .pastNewest
        let rows = try await database.query(PostStatements.comments, position.moment, position.id, first + 1, postID)
        return Page(items: try rows.prefix(first).map(PostRows.comment), hasNextPage: rows.count > first)
    }

    /// Comments `text` (trimmed) on the published post `postID` (held for review when it holds a
    /// blocked word): the comment and
    /// its post. BAD_USER_INPUT on `text` when blank or too long; NOT_FOUND for a post they may not
    /// see, or one not published.
    public func comment(on postID: UUID, text: String) async throws -> (comment: Comment, post: Post) {
        let text = try Self.commentText(text)
        guard let post = try await post(postID), post.status == .published else { throw GraphQLError.notFound() }
        let row = try await database.query(PostStatements.comment, postID, text)[0]
        return (try PostRows.comment(row).item, post)
    }

    /// `text` trimmed, or BAD_USER_INPUT on `text` unless of ``TextLimit/socialComment``.
    static func commentText(_ text: String) throws -> String {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard TextLimit.socialComment.admits(text) else {
            throw GraphQLError.badUserInput(field: "text", "text: a comment has \(TextLimit.socialComment).")
        }
        return text
    }

    /// Deletes the person's comment `id`. NOT_FOUND unless it is theirs and not deleted.
    public func deleteComment(_ id: UUID) async throws {
        guard try await database.query(PostStatements.deleteComment, id).first != nil else { throw GraphQLError.notFound() }
    }

    // MARK: Groups

    /// Every group, by name, and whether the person is a member.
    public func groups() async throws -> [SocialGroup] {
        try await database.query(PostStatements.groups).map(PostRows.group)
    }

    /// The group `id`; NOT_FOUND when there is none.
    public func group(_ id: UUID) async throws -> SocialGroup {
        guard let row = try await database.query(PostStatements.group, id).first else { throw GraphQLError.notFound() }
        return try PostRows.group(row)
    }

    /// A group named `name` (trimmed), described by `description` (blank is none), made by the
    /// person (an agency admin). BAD_USER_INPUT on `name` when blank, too long or taken, on
    /// `description` when too long.
    public func createGroup(name: String, description: String?) async throws -> SocialGroup {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard TextLimit.socialGroupName.admits(name) else {
            throw GraphQLError.badUserInput(field: "name", "name: must have \(TextLimit.socialGroupName).")
        }
        let description = description?.trimmingCharacters(in: .whitespacesAndNewlines).nilIfEmpty
        if let description, !TextLimit.socialGroupDescription.admits(description) {
            throw GraphQLError.badUserInput(field: "description", "description: must have \(TextLimit.socialGroupDescription).")
        }
        guard let row = try await database.query(PostStatements.createGroup, name, description).first else {
            throw GraphQLError.badUserInput(field: "name", "name: there is a group of that name already.")
        }
        return try await group(try row.decode(UUID.self, at: 0))
    }

    /// Joins (`member`) or leaves the group `id`: the group. NOT_FOUND when there is none.
    public func setMember(of id: UUID, _ member: Bool) async throws -> SocialGroup {
        _ = try await group(id)
        try await database.execute(member ? PostStatements.join : PostStatements.leave, id)
        return try await group(id)
    }
}

extension String {
    /// Nil when empty.
    package var nilIfEmpty: String? { isEmpty ? nil : self }
}
