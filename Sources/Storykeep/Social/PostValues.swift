public import Foundation
public import GraphQL
import Postgres
public import StorykeepCore

/// Who a post is for (the GraphQL enum `PostVisibility`).
public enum PostVisibility: String, Sendable, Hashable {
    case agency = "AGENCY"
    case friends = "FRIENDS"
}

/// Where a post or comment stands (the GraphQL enum `ContentStatus`): only PUBLISHED ones are read
/// by others; their author reads theirs as they stand.
public enum ContentStatus: String, Sendable, Hashable {
    case published = "PUBLISHED"
    /// Held for a moderator (the tenant's blocked words).
    case pendingReview = "PENDING_REVIEW"
    /// Taken down by a moderator.
    case removed = "REMOVED"
}

/// A post as the person reading sees it (the GraphQL type `Post`); its author, files, reactions
/// and comment count are loaded per page (``SocialModule``'s loaders).
public struct Post: Sendable, Hashable {
    public var id: UUID
    public var authorID: UUID
    public var text: String?
    public var link: String?
    public var groupID: UUID?
    public var visibility: PostVisibility
    public var status: ContentStatus
    public var createdAt: Date
    public var editedAt: Date?
    /// Why a moderator removed it (its author and moderators read it).
    public var removalReason: String?
    /// It reshares another post (its text is the resharer's comment).
    public var reshare: Bool = false
    /// The post it reshares; nil when it is none, or its original was erased.
    public var reshareOf: UUID?
}

/// A comment on a post (the GraphQL type `Comment`).
public struct Comment: Sendable, Hashable {
    public var id: UUID
    public var postID: UUID
    public var authorID: UUID
    public var text: String
    public var status: ContentStatus
    public var createdAt: Date
}

/// An interest group (the GraphQL type `SocialGroup`).
public struct SocialGroup: Sendable, Hashable {
    public var id: UUID
    public var name: String
    public var description: String?
    /// The reader is a member.
    public var joined: Bool
}

/// How a post's readers reacted, one kind (the GraphQL type `ReactionCount`).
public struct ReactionCount: Sendable, Hashable {
    public var kind: String
    public var count: Int
    /// The reader's own reaction is of this kind.
    public var mine: Bool
}

/// Posts in the order of `timeline`, `posts` and `groupPosts`: (created_at, id), both descending.
public enum PostList: MomentOrderedList {
    public static var name: String { "posts" }
}

/// A place in a list of posts, what its cursors hold.
public typealias PostPosition = MomentPosition<PostList>

/// A post's comments, newest first.
public enum CommentList: MomentOrderedList {
    public static var name: String { "comments" }
}

/// A place in a post's comments, what its cursors hold.
public typealias CommentPosition = MomentPosition<CommentList>

/// What `createPost` is given (the GraphQL input `PostInput`), checked.
public struct PostInput: Sendable, Hashable {
    public var text: String?
    public var link: String?
    public var mediaIDs: [UUID]
    public var groupID: UUID?
    public var visibility: PostVisibility

    /// The most files a post holds (`social_post_media_position` in Migrations/0033_social_posts.sql).
    public static let maxMedia = 10

    /// The input from its GraphQL object, or BAD_USER_INPUT naming the field (`input.text`,
    /// `input.link`, `input.mediaIds`, `input.groupId`): text trimmed, blank is none; at least
    /// one of text, files and link.
    public init(_ object: GraphQLObject) throws {
        text = try Self.text(object["text"]?.stringValue, field: "input.text")
        link = try Self.link(object["link"]?.stringValue)
        mediaIDs = try object.ids("mediaIds", field: "input.mediaIds").uniqued()
        guard mediaIDs.count <= Self.maxMedia else {
            throw GraphQLError.badUserInput(field: "input.mediaIds", "mediaIds: a post holds at most \(Self.maxMedia) files.")
        }
        if let group = object["groupId"]?.stringValue {
            guard let id = UUID(uuidString: group) else { throw Self.notAMember }
            groupID = id
        }
        visibility = object["visibility"]?.stringValue.flatMap(PostVisibility.init(rawValue:)) ?? .friends
        guard text != nil || link != nil || !mediaIDs.isEmpty else {
            throw GraphQLError.badUserInput(field: "input.text", "text: a post needs text, a file or a link.")
        }
    }

    /// `text` trimmed (nil when blank), or BAD_USER_INPUT on `field` past ``TextLimit/socialPostText``.
    static func text(_ text: String?, field: String) throws -> String? {
        guard let text = text?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty else { return nil }
        guard TextLimit.socialPostText.admits(text) else {
            throw GraphQLError.badUserInput(field: field, "text: must have \(TextLimit.socialPostText).")
        }
        return text
    }

    /// `link` trimmed (nil when blank): an http or https URL with a host and no spaces, of
    /// ``TextLimit/socialPostLink``; BAD_USER_INPUT on `input.link` otherwise. Never fetched.
    static func link(_ link: String?) throws -> String? {
        guard let link = link?.trimmingCharacters(in: .whitespacesAndNewlines), !link.isEmpty else { return nil }
        guard TextLimit.socialPostLink.admits(link), !link.contains(where: \.isWhitespace),
            let url = URL(string: link), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false,
            link.lowercased().hasPrefix("http")
        else {
            throw GraphQLError.badUserInput(field: "input.link", "link: an http:// or https:// address of \(TextLimit.socialPostLink).")
        }
        return link
    }

    /// BAD_USER_INPUT on `input.groupId`: not a group the person is a member of.
    static var notAMember: GraphQLError {
        .badUserInput(field: "input.groupId", "groupId: you can post only to a group you have joined.")
    }
}

/// How the rows of ``PostStatements`` are read.
enum PostRows {
    /// A post from the columns of `PostStatements.postColumns`: id, author, text, link, group,
    /// visibility, status, created_at, edited_at, removal_reason.
    static func post(_ row: PostgresRow) throws -> (item: Post, position: PostPosition) {
        let post = Post(
            id: try row.decode(UUID.self, at: 0), authorID: try row.decode(UUID.self, at: 1), text: try row.decode(String?.self, at: 2),
            link: try row.decode(String?.self, at: 3), groupID: try row.decode(UUID?.self, at: 4),
            visibility: PostVisibility(rawValue: try row.decode(String.self, at: 5)) ?? .friends,
            status: ContentStatus(rawValue: try row.decode(String.self, at: 6)) ?? .published,
            createdAt: try row.decode(Date.self, at: 7), editedAt: try row.decode(Date?.self, at: 8),
            removalReason: try row.decode(String?.self, at: 9), reshare: try row.decode(Bool.self, at: 10),
            reshareOf: try row.decode(UUID?.self, at: 11))
        return (post, PostPosition(moment: try row.decode(PostgresTimestamp.self, at: 7), id: post.id))
    }

    /// A comment from the columns of `PostStatements.commentColumns`.
    static func comment(_ row: PostgresRow) throws -> (item: Comment, position: CommentPosition) {
        let comment = Comment(
            id: try row.decode(UUID.self, at: 0), postID: try row.decode(UUID.self, at: 1), authorID: try row.decode(UUID.self, at: 2),
            text: try row.decode(String.self, at: 3), status: ContentStatus(rawValue: try row.decode(String.self, at: 4)) ?? .published,
            createdAt: try row.decode(Date.self, at: 5))
        return (comment, CommentPosition(moment: try row.decode(PostgresTimestamp.self, at: 5), id: comment.id))
    }

    /// A group from `PostStatements.groupColumns`.
    static func group(_ row: PostgresRow) throws -> SocialGroup {
        SocialGroup(
            id: try row.decode(UUID.self, at: 0), name: try row.decode(String.self, at: 1),
            description: try row.decode(String?.self, at: 2), joined: try row.decode(Bool.self, at: 3))
    }
}

extension Post: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "text": text
        case "link": link
        case "visibility": visibility.rawValue
        case "status": status.rawValue
        case "createdAt": DateTimeScalar.string(createdAt)
        case "editedAt": editedAt.map(DateTimeScalar.string)
        case "edited": editedAt != nil
        case "removalReason": removalReason
        case "reshare": reshare
        default: nil
        }
    }
}

extension Comment: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "postId": postID.lowercased
        case "text": text
        case "status": status.rawValue
        case "createdAt": DateTimeScalar.string(createdAt)
        default: nil
        }
    }
}

extension SocialGroup: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "name": self.name
        case "description": description
        case "joined": joined
        default: nil
        }
    }
}

extension ReactionCount: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "kind": kind
        case "count": count
        case "mine": mine
        default: nil
        }
    }
}
