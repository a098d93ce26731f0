import Foundation
import GraphQL
import Postgres
import StorykeepCore

/// What agency admins do with case-management clients: create, rotate, revoke, list
/// (`createCmsClient`, `rotateCmsClientSecret`, `revokeCmsClient`, `cmsClients`), in the admin's
/// transaction, whose policies admit admins alone (Migrations/0017_export.sql).
struct CmsClients<Queryable: PostgresQueryable> {
    let tx: Queryable
    /// The time the request judges by.
    let now: Date

    init(_ tx: Queryable, now: Date) {
        self.tx = tx
        self.now = now
    }

    /// A new client called `name` and its secret.
    func create(name: String) async throws -> CmsClientCredentials {
        let name = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard TextLimit.cmsClientName.admits(name) else {
            throw GraphQLError.badUserInput(field: "name", "name: give the client a name of \(TextLimit.cmsClientName).")
        }
        let secret = try SessionToken.generate()
        let rows = try await tx.query(CmsClientStatements.create, name, secret.storageHash)
        return CmsClientCredentials(client: try CmsClient(row: rows[0], now: now), secret: secret)
    }

    /// The tenant's clients, oldest first.
    func all() async throws -> [CmsClient] {
        try await tx.query(CmsClientStatements.list).map { try CmsClient(row: $0, now: now) }
    }

    /// A new secret for the live client `id`; the current one works for `grace` more.
    func rotate(id: UUID, grace: TimeInterval) async throws -> CmsClientCredentials {
        let secret = try SessionToken.generate()
        guard let row = try await tx.query(CmsClientStatements.rotate, id, secret.storageHash, now.addingTimeInterval(grace)).first else {
            throw GraphQLError.notFound("No such client, or it was revoked.")
        }
        return CmsClientCredentials(client: try CmsClient(row: row, now: now), secret: secret)
    }

    /// Revokes the client `id` (one revoked already stays as it was).
    func revoke(id: UUID) async throws -> CmsClient {
        if let row = try await tx.query(CmsClientStatements.revoke, id).first { return try CmsClient(row: row, now: now) }
        guard let row = try await tx.query(CmsClientStatements.find, id).first else { throw GraphQLError.notFound("No such client.") }
        return try CmsClient(row: row, now: now)
    }

    /// The client `id`, if there is one.
    func find(id: UUID) async throws -> CmsClient? {
        try await tx.query(CmsClientStatements.find, id).first.map { try CmsClient(row: $0, now: now) }
    }
}
