public import Foundation
public import Postgres
public import GraphQL
public import StorykeepCore

/// How an adult looks after a young person (the `assignment_relationship` type of
/// Migrations/0010_caseload.sql).
public enum AssignmentRelationship: String, Sendable, Hashable, CaseIterable, Codable {
    case socialWorker = "SOCIAL_WORKER"
    case carer = "CARER"
    /// An independent reviewing officer, a teacher, ...: a professional account.
    case otherProfessional = "OTHER_PROFESSIONAL"

    /// The role an adult must have to be assigned so.
    public var adultRole: PersonRole {
        switch self {
        case .socialWorker, .otherProfessional: .socialWorker
        case .carer: .carer
        }
    }

    /// The relationship in words, as a young person reads it: "your social worker".
    var asTheirs: String {
        switch self {
        case .socialWorker: "your social worker"
        case .carer: "your carer"
        case .otherProfessional: "one of the professionals looking after you"
        }
    }
}

/// Someone as the people they are assigned to see them (the GraphQL type `CaseloadPerson`): a
/// name and an avatar, never their email, username or case reference.
public struct CaseloadPerson: Sendable, Hashable {
    public var id: UUID
    public var role: PersonRole
    /// Their profile's name where the reader may see their profile, else their name in the
    /// agency's records.
    public var displayName: String
    /// Their profile's built-in avatar or emoji, where the reader may see their profile.
    public var avatar: String?

    /// The person whose four columns of `row` start at `column`: the id, the role, the display
    /// name (the profile's where the reader may see it, else the agency's) and the avatar, as the
    /// caseload's statements and other modules' statements about people in an assignment read them.
    public init(_ row: PostgresRow, at column: Int) throws {
        guard let role = PersonRole(rawValue: try row.decode(String.self, at: column + 1)) else {
            throw PostgresError(kind: .decoding, message: "unknown person_role")
        }
        id = try row.decode(UUID.self, at: column)
        self.role = role
        displayName = try row.decode(String.self, at: column + 2)
        avatar = try row.decode(String?.self, at: column + 3)
    }

    /// The person whose four columns start at `column`, or nil when they are null (nobody).
    public static func optional(_ row: PostgresRow, at column: Int) throws -> CaseloadPerson? {
        try row.decode(UUID?.self, at: column) == nil ? nil : try CaseloadPerson(row, at: column)
    }
}

/// An adult looking after a young person, from `since` until `until` (nil while it runs).
public struct Assignment: Sendable, Hashable {
    public var id: UUID
    public var youngPerson: CaseloadPerson
    public var adult: CaseloadPerson
    public var relationship: AssignmentRelationship
    public var since: Date
    public var until: Date?
    /// The admin who assigned, and who ended it; nil for the tenant's operator (command line).
    public var assignedBy: CaseloadPerson?
    public var endedBy: CaseloadPerson?
}

/// One of an adult's current young people (the GraphQL type `CaseloadYoungPerson`). Other
/// modules add fields to it by `CaseloadYoungPerson.<field>` resolvers that read this value (the
/// sharing module's `unreadShares`, by a DataLoader keyed by `youngPerson.id`).
public struct CaseloadYoungPerson: Sendable, Hashable {
    public var assignmentID: UUID
    public var youngPerson: CaseloadPerson
    public var relationship: AssignmentRelationship
    public var since: Date
}

/// One of a young person's current adults (the GraphQL type `TeamMember`).
public struct TeamMember: Sendable, Hashable {
    public var assignmentID: UUID
    public var adult: CaseloadPerson
    public var relationship: AssignmentRelationship
    public var since: Date
}

extension CaseloadPerson: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "role": role.rawValue
        case "displayName": displayName
        case "avatar": avatar
        default: nil
        }
    }
}

extension Assignment: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "youngPerson": youngPerson
        case "adult": adult
        case "relationship": relationship.rawValue
        case "since": DateTimeScalar.string(since)
        case "until": until.map(DateTimeScalar.string)
        case "current": until == nil
        case "assignedBy": assignedBy
        case "endedBy": endedBy
        default: nil
        }
    }
}

extension CaseloadYoungPerson: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "youngPerson": youngPerson
        case "relationship": relationship.rawValue
        case "since": DateTimeScalar.string(since)
        default: nil
        }
    }
}

extension TeamMember: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": adult.id.lowercased
        case "displayName": adult.displayName
        case "avatar": adult.avatar
        case "role": adult.role.rawValue
        case "relationship": relationship.rawValue
        case "since": DateTimeScalar.string(since)
        default: nil
        }
    }
}
