public import Foundation
public import GraphQL
import Postgres
import StorykeepCore

/// A case-management client as admins see it (the GraphQL type `CmsClient`): never its secret.
public struct CmsClient: Sendable, Equatable {
    public var id: UUID
    public var name: String
    public var createdAt: Date
    public var rotatedAt: Date?
    /// Until when the secret before the last rotation works (past or not: see ``previousSecretValidUntil(at:)``).
    public var previousSecretUntil: Date?
    public var revokedAt: Date?
    /// The time the request judges by, for `previousSecretValidUntil`.
    var now: Date

    /// A row of ``CmsClientStatements``' columns, read at `now`.
    init(row: PostgresRow, now: Date) throws {
        id = try row.decode(UUID.self, at: 0)
        name = try row.decode(String.self, at: 1)
        createdAt = try row.decode(Date.self, at: 2)
        rotatedAt = try row.decode(Date?.self, at: 3)
        previousSecretUntil = try row.decode(Date?.self, at: 4)
        revokedAt = try row.decode(Date?.self, at: 5)
        self.now = now
    }
}

extension CmsClient: GraphQLFieldReadable {
    public func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "id": id.lowercased
        case "name": self.name
        case "createdAt": DateTimeScalar.string(createdAt)
        case "rotatedAt": rotatedAt.map(DateTimeScalar.string)
        case "previousSecretValidUntil": previousSecretUntil.flatMap { $0 > now && revokedAt == nil ? DateTimeScalar.string($0) : nil }
        case "revokedAt": revokedAt.map(DateTimeScalar.string)
        default: nil
        }
    }
}

/// A client with its new secret (the GraphQL type `CmsClientCredentials`): the only time the
/// secret exists outside the case management system.
struct CmsClientCredentials: GraphQLFieldReadable {
    var client: CmsClient
    var secret: SessionToken

    func value(forField name: String) -> (any Sendable)? {
        switch name {
        case "client": client
        case "clientSecret": secret.text
        default: nil
        }
    }
}
