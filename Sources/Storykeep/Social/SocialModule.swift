import Foundation
import GraphQL
import Postgres
public import StorykeepCore
import StorykeepNotifications

/// The social module in the schema (Schema/social.graphql): profiles, finding people, friends and
/// blocks. Switched on by `social` in the tenant file; who takes part is `social.participants`
/// (``SocialPolicy``), which the database holds too (Migrations/0032_social.sql).
///
/// Friend requests tell the other person in their transaction (Notifications):
/// ``friendRequestKind`` to the person asked, ``friendAcceptedKind`` to the one who asked, with
/// the other's profile (`person`) as the subject and their display name in the title.
public struct SocialModule: StorykeepModule {
    public init() {}

    public var name: String { "social" }
    public var switchedBy: TenantModule? { .social }
    public var tenantSettings: [any TenantSettings.Type] { [TenantSection<SocialPolicy>.self] }

    /// The notification a person gets when someone asks to be their friend.
    public static let friendRequestKind = "friendRequest"
    /// The notification a person gets when someone accepts their friend request.
    public static let friendAcceptedKind = "friendAccepted"

    public func register(_ module: inout ModuleRegistry) {
        registerProfiles(&module)
        registerFriends(&module)
        registerBlocks(&module)
        registerPosts(&module)
        registerModeration(&module)
        registerAdminPeople(&module)
    }

    private func registerProfiles(_ module: inout ModuleRegistry) {
        module.query("mySocialProfile", access: .authenticated) { _, context in
            let viewer = try Self.participant(context)
            return try await context.transaction { tx in try await SocialStore(tx).profile(viewer.personID) }
        }
        module.query("socialProfile", access: .authenticated) { arguments, context in
            _ = try Self.participant(context)
            guard let id = arguments["personId"]?.stringValue.flatMap(UUID.init(uuidString:)) else { return nil }
            return try await context.transaction { tx in try await SocialStore(tx).profile(id) }
        }
        module.query("searchPeople", access: .authenticated) { arguments, context in
            _ = try Self.participant(context)
            return try await context.transaction { tx in
                try await SocialStore(tx).search(arguments["query"]?.stringValue ?? "", first: arguments["first"]?.intValue ?? 20)
            }
        }
        module.mutation("updateSocialProfile", access: .authenticated) { arguments, context in
            let viewer = try Self.participant(context)
            let input = try SocialProfileInput(arguments["input"]?.objectValue ?? [:])
            return try await context.transaction { tx in try await SocialStore(tx).saveProfile(input, personID: viewer.personID) }
        }
    }

    private func registerFriends(_ module: inout ModuleRegistry) {
        module.query("friends", access: .authenticated) { _, context in
            _ = try Self.participant(context)
            return try await context.transaction { tx in try await SocialStore(tx).friends() }
        }
        module.query("friendRequests", access: .authenticated) { _, context in
            _ = try Self.participant(context)
            return try await context.transaction { tx in try await SocialStore(tx).requests() }
        }
        module.mutation("sendFriendRequest", access: .authenticated) { arguments, context in
            let viewer = try Self.participant(context)
            let personID = try arguments.id("personId")
            return try await context.transaction { tx in
                let store = SocialStore(tx)
                try await store.requireProfile()
                let sent = try await store.sendRequest(to: personID, from: viewer.personID, limit: context.tenant.file.social.rateLimits.friendRequestsPerHour)
                let me = try await store.profile(viewer.personID)
                switch sent {
                case .requestedBefore:
                    break
                case .requested:
                    try await Self.tell(personID, kind: Self.friendRequestKind, "\(me?.displayName ?? "Someone") asked to be your friend", about: viewer.personID, in: tx)
                case .accepted:
                    try await Self.tell(personID, kind: Self.friendAcceptedKind, "\(me?.displayName ?? "Someone") is now your friend", about: viewer.personID, in: tx)
                }
                return try await Self.profile(personID, in: tx)
            }
        }
        module.mutation("respondToFriendRequest", access: .authenticated) { arguments, context in
            let viewer = try Self.participant(context)
            let id = try arguments.id("id")
            let accept = arguments["accept"]?.boolValue ?? false
            return try await context.transaction { tx in
                let store = SocialStore(tx)
                let requester = try await store.respond(to: id, accept: accept)
                if accept {
                    let me = try await store.profile(viewer.personID)
                    try await Self.tell(requester, kind: Self.friendAcceptedKind, "\(me?.displayName ?? "Someone") accepted your friend request", about: viewer.personID, in: tx)
                }
                return try await Self.profile(requester, in: tx)
            }
        }
        module.mutation("removeFriend", access: .authenticated) { arguments, context in
            _ = try Self.participant(context)
            let personID = try arguments.id("personId")
            return try await context.transaction { tx in
                try await SocialStore(tx).removeFriend(personID)
                return true
            }
        }
    }

    private func registerBlocks(_ module: inout ModuleRegistry) {
        module.query("blockedPeople", access: .authenticated) { _, context in
            _ = try Self.participant(context)
            return try await context.transaction { tx in try await SocialStore(tx).blocked() }
        }
        module.mutation("blockPerson", access: .authenticated) { arguments, context in
            let viewer = try Self.participant(context)
            let personID = try arguments.id("personId")
            return try await context.transaction { tx in
                try await SocialStore(tx).block(personID, me: viewer.personID)
                return true
            }
        }
        module.mutation("unblockPerson", access: .authenticated) { arguments, context in
            _ = try Self.participant(context)
            let personID = try arguments.id("personId")
            return try await context.transaction { tx in
                try await SocialStore(tx).unblock(personID)
                return true
            }
        }
    }

    /// The viewer, when their role takes part (`social.participants`); FORBIDDEN otherwise.
    static func participant(_ context: ResolverContext) throws -> Viewer {
        let viewer = try context.requireViewer()
        guard context.tenant.file.social.participants.contains(viewer.role) else { throw GraphQLError.notTakingPart }
        return viewer
    }

    /// The profile of `personID` as the viewer reads it, which a statement of the same
    /// transaction found.
    private static func profile(_ personID: UUID, in tx: PostgresTransaction) async throws -> SocialProfile {
        guard let profile = try await SocialStore(tx).profile(personID) else { throw GraphQLError.notFound() }
        return profile
    }

    /// Notifies `recipient` of `kind` with `title`, about the person `personID`.
    private static func tell(_ recipient: UUID, kind: String, _ title: String, about personID: UUID, in tx: PostgresTransaction) async throws {
        try await Notifications.notify([recipient], kind: kind, title: title, subject: NotificationSubject(kind: "person", id: personID), in: tx)
    }
}
