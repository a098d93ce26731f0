import Foundation
import Postgres

/// Which bytes of a file a download sends, chosen once its size is known (HTTP Range).
public enum MediaByteSelection: Sendable, Equatable {
    case whole
    /// Offsets within the file; the caller keeps them within its size.
    case part(Range<Int>)
    /// None: the client has them already (`If-None-Match`), or the range asked for lies
    /// outside the file.
    case nothing
}

/// Files fetched by URL (`GET /t/<slug>/media/<id>`), for whoever the bearer token says, under
/// the same policies as the journal: only those who may read the file get its bytes (today its
/// owner). Each download is one transaction: the session, the file's description, its bytes.
public struct MediaDownloads: Sendable {
    public let services: DomainServices

    public init(services: DomainServices) {
        self.services = services
    }

    public enum Outcome: Sendable {
        /// No token, or one that is no live session of this tenant.
        case unauthenticated
        /// No such file for this person: absent, or someone else's (not told apart).
        case notFound
        /// The file's description, and the selected bytes (none for `.nothing`).
        case file(MediaInfo, bytes: [UInt8], selection: MediaByteSelection)
        /// Reading took longer than the request's statement timeout (`database.statementTimeoutSeconds`).
        case timedOut
    }

    /// The file `id` of `tenant` as the request's `authorization` header's person may read it;
    /// `select` chooses the bytes once the file's size is known.
    public func read(
        id: String, tenant: Tenant, authorization: String?, select: @Sendable (MediaInfo) -> MediaByteSelection
    ) async throws -> Outcome {
        guard case .some(.some(let token)) = TenantGraphQL.bearerToken(authorization) else { return .unauthenticated }
        do {
            return try await read(id: id, token: token, tenant: tenant, select: select)
        } catch let error as PostgresError where error.sqlState == PostgresError.SQLState.queryCanceled {
            return .timedOut
        }
    }

    private func read(
        id: String, token: SessionToken, tenant: Tenant, select: @Sendable (MediaInfo) -> MediaByteSelection
    ) async throws -> Outcome {
        try await services.authenticated(token, tenantID: tenant.id) { viewer, tx in
            guard viewer != nil else { return .unauthenticated }
            guard let uuid = UUID(uuidString: id), let info = try await MediaStore(tx).media(ids: [uuid]).first else {
                return .notFound
            }
            let selection = select(info)
            let bytes: [UInt8]?
            switch selection {
            case .nothing: return .file(info, bytes: [], selection: selection)
            case .whole: bytes = try await MediaStore(tx).bytes(id: uuid)
            case .part(let range): bytes = try await MediaStore(tx).bytes(id: uuid, offset: range.lowerBound, length: range.count)
            }
            // Gone since its description was read (purged): as if it had never been.
            guard let bytes else { return .notFound }
            return .file(info, bytes: bytes, selection: selection)
        }
    }
}
