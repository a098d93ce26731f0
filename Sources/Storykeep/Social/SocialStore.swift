public import Foundation
import GraphQL
public import Postgres
import StorykeepCore

/// The social module's people, in the transaction it is given, for the person it runs as:
/// their profile, finding others, friend requests and friends, blocks. The policies of
/// Migrations/0032_social.sql hold each statement to who takes part and to blocks, both ways.
///
/// Refusals throw a coded `GraphQLError` and change nothing: NOT_FOUND for a person the reader may
/// not see (no profile, blocked either way, another agency's, not taking part: all alike),
/// BAD_USER_INPUT naming the argument, FORBIDDEN for someone who has no profile yet.
public struct SocialStore<Database: PostgresQueryable>: Sendable {
    /// The transaction the store runs its statements in.
    public let database: Database

    public init(_ database: Database) {
        self.database = database
    }

    // MARK: Profiles

    /// The profiles among `ids` the person may read, by id: one statement (what the loaders call).
    public func profiles(_ ids: [UUID]) async throws -> [UUID: SocialProfile] {
        let rows = try await database.query(SocialStatements.profilesByID, ids.uniqued())
        return Dictionary(uniqueKeysWithValues: try rows.map { let p = try SocialRows.profile($0); return (p.personID, p) })
    }

    /// The profile of `id`, when the person may read it.
    public func profile(_ id: UUID) async throws -> SocialProfile? {
        try await profiles([id])[id]
    }

    /// Makes or replaces the person's profile. FORBIDDEN when they do not take part.
    public func saveProfile(_ input: SocialProfileInput, personID: UUID) async throws -> SocialProfile {
        guard try await database.query(SocialStatements.takesPart)[0].decode(Bool.self, at: 1) else {
            throw GraphQLError.notTakingPart
        }
        try await database.execute(
            SocialStatements.saveProfile, input.displayName, input.bio, input.interests, input.isPrivate, input.discoverable)
        guard let profile = try await profile(personID) else { throw GraphQLError.notTakingPart }
        return profile
    }

    /// FORBIDDEN unless the person takes part and has a profile.
    public func requireProfile() async throws {
        let row = try await database.query(SocialStatements.takesPart)[0]
        guard try row.decode(Bool.self, at: 1) else { throw GraphQLError.notTakingPart }
        guard try row.decode(Bool.self, at: 0) else {
            throw GraphQLError.forbidden("Make your social profile first (updateSocialProfile).")
        }
    }

    /// The discoverable people whose name, or a word of it, starts with `query` (trimmed, any
    /// case), by name; `first` of them. BAD_USER_INPUT on `query` when blank or longer than a
    /// name, on `first` outside 0 to ``PageSize/max``.
    public func search(_ query: String, first: Int) async throws -> [SocialProfile] {
        try PageSize.check(first)
        let query = query.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard TextLimit.socialDisplayName.admits(query) else {
            throw GraphQLError.badUserInput(field: "query", "query: must have \(TextLimit.socialDisplayName).")
        }
        return try await database.query(SocialStatements.search, query, first).map { try SocialRows.profile($0) }
    }

    // MARK: Friends

    /// What sending a friend request did: asked, asked already, or, when they had asked the
    /// person, accepted.
    public enum Sent: Sendable {
        case requested(UUID)
        case requestedBefore(UUID)
        case accepted(UUID)
    }

    /// Asks `personID` to be friends (asking again changes nothing); accepts their request when
    /// they asked first. NOT_FOUND for someone the person may not see; BAD_USER_INPUT on
    /// `personId` for themselves or a friend already; RATE_LIMITED past `limit` new requests an
    /// hour.
    public func sendRequest(to personID: UUID, from me: UUID, limit: Int) async throws -> Sent {
        guard personID != me else { throw GraphQLError.badUserInput(field: "personId", "personId: you cannot befriend yourself.") }
        let row = try await database.query(SocialStatements.friendshipWith, personID)[0]
        guard try row.decode(Bool.self, at: 0) else { throw GraphQLError.notFound() }
        if let id = try row.decode(UUID?.self, at: 1) {
            if try row.decode(Date?.self, at: 3) != nil {
                throw GraphQLError.badUserInput(field: "personId", "personId: you are friends already.")
            }
            if try row.decode(UUID.self, at: 2) == me { return .requestedBefore(id) }
            guard try await database.query(SocialStatements.accept, id).first != nil else { throw GraphQLError.notFound() }
            return .accepted(id)
        }
        try await RateLimits.take("friendRequest", limit: limit, in: database)
        return .requested(try await database.query(SocialStatements.request, personID)[0].decode(UUID.self, at: 0))
    }

    /// Accepts or declines the request `id` made to the person: who asked. NOT_FOUND when there
    /// is no such request to them (answered already, withdrawn, or not theirs).
    public func respond(to id: UUID, accept: Bool) async throws -> UUID {
        guard let row = try await database.query(accept ? SocialStatements.accept : SocialStatements.decline, id).first else {
            throw GraphQLError.notFound()
        }
        return try row.decode(UUID.self, at: 0)
    }

    /// Ends the friendship with `personID`, or withdraws or declines a request either way.
    /// NOT_FOUND when nothing stands between them.
    public func removeFriend(_ personID: UUID) async throws {
        guard try await database.query(SocialStatements.unfriend, personID).first != nil else { throw GraphQLError.notFound() }
    }

    /// The person's friends, by name.
    public func friends() async throws -> [SocialProfile] {
        try await database.query(SocialStatements.friends).map { try SocialRows.profile($0) }
    }

    /// The requests the person sent or received, not answered yet, newest first.
    public func requests() async throws -> [FriendRequest] {
        try await database.query(SocialStatements.requests).map { row in
            FriendRequest(
                id: try row.decode(UUID.self, at: 0), person: try SocialRows.profile(row, at: 3),
                incoming: try row.decode(Bool.self, at: 2), requestedAt: try row.decode(Date.self, at: 1))
        }
    }

    // MARK: Blocks

    /// Blocks `personID` (again: nothing changes), ending any friendship or request between them.
    /// NOT_FOUND for someone the person may not see (and was not blocked by); BAD_USER_INPUT on
    /// `personId` for themselves.
    public func block(_ personID: UUID, me: UUID) async throws {
        guard personID != me else { throw GraphQLError.badUserInput(field: "personId", "personId: you cannot block yourself.") }
        guard try await database.query(SocialStatements.mayBlock, personID)[0].decode(Bool.self, at: 0) else {
            throw GraphQLError.notFound()
        }
        // Before the block hides it.
        try await database.execute(SocialStatements.unfriend, personID)
        try await database.execute(SocialStatements.block, personID)
    }

    /// Lifts the person's block of `personID`. NOT_FOUND when they had not blocked them.
    public func unblock(_ personID: UUID) async throws {
        guard try await database.query(SocialStatements.unblock, personID).first != nil else { throw GraphQLError.notFound() }
    }

    /// The people the person blocked, newest first.
    public func blocked() async throws -> [BlockedPerson] {
        try await database.query(SocialStatements.blocked).map {
            BlockedPerson(personID: try $0.decode(UUID.self, at: 0), blockedAt: try $0.decode(Date.self, at: 1))
        }
    }
}

extension GraphQLError {
    /// FORBIDDEN: the person does not take part in the social module (`social.participants`).
    static var notTakingPart: GraphQLError {
        .forbidden("The social space is not open to you: your agency chooses who takes part.")
    }
}
