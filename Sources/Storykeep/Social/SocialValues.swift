public import Foundation
public import GraphQL
import Postgres
import StorykeepCore

/// How the person reading a profile stands with its person (the GraphQL enum `Friendship`).
public enum Friendship: String, Sendable, Hashable {
    case none = "NONE"
    case friends = "FRIENDS"
    /// The reader asked them; no answer yet.
    case requestSent = "REQUEST_SENT"
    /// They asked the reader; no answer yet.
    case requestReceived = "REQUEST_RECEIVED"
    /// The reader's own profile.
    case you = "YOU"
}

/// A person as the social module shows them to the person reading (the GraphQL type
/// `SocialProfile`): never their legal name, username, email or case reference.
public struct SocialProfile: Sendable, Hashable {
    public var personID: UUID
    public var displayName: String
    /// Nil when there is none, or the profile is private and the reader no friend.
    public var bio: String?
    /// Empty when the profile is private and the reader no friend.
    public var interests: [String]
    public var isPrivate: Bool
    /// The reader's own profile only; nil on others'.
    public var discoverable: Bool?
    /// An adult of the agency (a participant by `social.participants`).
    public var staff: Bool
    public var friendship: Friendship
}

/// A friend request the person sent or received, not answered yet (the GraphQL type `FriendRequest`).
public struct FriendRequest: Sendable, Hashable {
    public var id: UUID
    /// The other person.
    public var person: SocialProfile
    /// They asked the reader (else the reader asked them).
    public var incoming: Bool
    public var requestedAt: Date
}

/// Someone the person blocked (the GraphQL type `BlockedPerson`): only the id, since a block hides
/// the two people from each other, their profiles included.
public struct BlockedPerson: Sendable, Hashable {
    public var personID: UUID
    public var blockedAt: Date
}

/// What `updateSocialProfile` is given (the GraphQL input `SocialProfileInput`): the whole profile.
public struct SocialProfileInput: Sendable, Hashable {
    public var displayName: String
    public var bio: String?
    public var interests: [String]
    public var isPrivate: Bool
    public var discoverable: Bool

    /// The most interests a profile lists, and how long each is (Unicode code points): the
    /// numbers of `social_interests_valid` in Migrations/0032_social.sql.
    public static let maxInterests = 10
    public static let interestLength = 1...40

    /// The input from its GraphQL object, trimmed (a blank bio is none), or BAD_USER_INPUT naming
    /// the field (`input.displayName`, `input.bio`, `input.interests`).
    public init(_ object: GraphQLObject) throws {
        displayName = (object["displayName"]?.stringValue ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        guard TextLimit.socialDisplayName.admits(displayName) else {
            throw GraphQLError.badUserInput(field: "input.displayName", "displayName: must have \(TextLimit.socialDisplayName).")
        }
        bio = object["bio"]?.stringValue.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        if let bio, !TextLimit.socialBio.admits(bio) {
            throw GraphQLError.badUserInput(field: "input.bio", "bio: must have \(TextLimit.socialBio).")
        }
        interests = (object["interests"]?.listValue ?? []).compactMap(\.stringValue)
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.uniqued()
        guard interests.count <= Self.maxInterests,
            interests.allSatisfy({ Self.interestLength.contains(TextLimit.length(of: $0)) })
        else {
            throw GraphQLError.badUserInput(
                field: "input.interests",
                "interests: at most \(Self.maxInterests), each of \(Self.interestLength.lowerBound) to \(Self.interestLength.upperBound) characters.")
        }
        isPrivate = object["private"]?.boolValue ?? false
        discoverable = object["discoverable"]?.boolValue ?? false
    }
}

/// How the rows of ``SocialStatements`` are read.
enum SocialRows {
    /// A profile from the columns of `SocialStatements.profileColumns`, starting at `index`.
    static func profile(_ row: PostgresRow, at index: Int = 0) throws -> SocialProfile {
        SocialProfile(
            personID: try row.decode(UUID.self, at: index), displayName: try row.decode(String.self, at: index + 1),
            bio: try row.decode(String?.self, at: index + 2), interests: try row.decode([String].self, at: index + 3),
            isPrivate: try row.decode(Bool.self, at: index + 4), discoverable: try row.decode(Bool?.self, at: index + 5),
            staff: try row.decode(Bool.self, at: index + 6),
            friendship: Friendship(rawValue: try row.decode(String.self, at: index + 7)) ?? .none)
    }
}

extension SocialProfile: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "personId": personID.lowercased
        case "displayName": displayName
        case "bio": bio
        case "interests": interests
        case "private": isPrivate
        case "discoverable": discoverable
        case "staff": staff
        case "friendship": friendship.rawValue
        default: nil
        }
    }
}

extension FriendRequest: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "person": person
        case "incoming": incoming
        case "requestedAt": DateTimeScalar.string(requestedAt)
        default: nil
        }
    }
}

extension BlockedPerson: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "personId": personID.lowercased
        case "blockedAt": DateTimeScalar.string(blockedAt)
        default: nil
        }
    }
}
