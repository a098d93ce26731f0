public import Foundation
import StorykeepCore
public import GraphQL
import Postgres

/// A row of `people` as the API shows it (the GraphQL type `Person`).
public struct PersonRecord: Sendable, Equatable {
    public var id: UUID
    public var role: PersonRole
    public var displayName: String
    public var username: String?
    public var email: String?
    public var externalRef: String?
    public var disabled: Bool
    public var termsVersionAccepted: String?
    public var termsAcceptedAt: Date?
    public var createdAt: Date
    /// When they first set a password; nil until then (they can be given an onboarding code).
    public var activatedAt: Date?

    /// How many columns ``init(row:)`` reads: `p.id, p.role::text, p.display_name, p.username,
    /// p.email, p.external_ref, p.disabled_at is not null, p.terms_version_accepted,
    /// p.terms_accepted_at, p.created_at, p.activated_at` of `people p`, in that order. A query may
    /// select more after them.
    static let columnCount = 11

    init(row: PostgresRow) throws {
        id = try row.decode(UUID.self, at: 0)
        guard let role = PersonRole(rawValue: try row.decode(String.self, at: 1)) else {
            throw PostgresError(kind: .decoding, message: "unknown person_role")
        }
        self.role = role
        displayName = try row.decode(String.self, at: 2)
        username = try row.decode(String?.self, at: 3)
        email = try row.decode(String?.self, at: 4)
        externalRef = try row.decode(String?.self, at: 5)
        disabled = try row.decode(Bool.self, at: 6)
        termsVersionAccepted = try row.decode(String?.self, at: 7)
        termsAcceptedAt = try row.decode(Date?.self, at: 8)
        createdAt = try row.decode(Date.self, at: 9)
        activatedAt = try row.decode(Date?.self, at: 10)
    }

    /// The person with this id, as far as the transaction's context may see them.
    static func find(_ id: UUID, in tx: some PostgresQueryable) async throws -> PersonRecord? {
        let rows = try await tx.query(PeopleStatements.person, id)
        return try rows.first.map(PersonRecord.init(row:))
    }

    /// The `Person` object: what the default resolvers read its fields from. `termsVersion` is
    /// the tenant's current one, which `mustAcceptTerms` compares with.
    public func graphQLValue(termsVersion: String) -> GraphQLValue {
        .object([
            "id": .string(id.uuidString.lowercased()),
            "role": .string(role.rawValue),
            "displayName": .string(displayName),
            "username": username.map(GraphQLValue.string) ?? .null,
            "email": email.map(GraphQLValue.string) ?? .null,
            "externalRef": externalRef.map(GraphQLValue.string) ?? .null,
            "disabled": .bool(disabled),
            "mustAcceptTerms": .bool(termsVersionAccepted != termsVersion),
            "termsVersionAccepted": termsVersionAccepted.map(GraphQLValue.string) ?? .null,
            "termsAcceptedAt": termsAcceptedAt.map { .string(DateTimeScalar.string($0)) } ?? .null,
            "createdAt": .string(DateTimeScalar.string(createdAt)),
            "activatedAt": activatedAt.map { .string(DateTimeScalar.string($0)) } ?? .null,
        ])
    }
}
