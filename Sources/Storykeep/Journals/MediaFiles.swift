import Foundation
public import Postgres
public import StorykeepCore

/// The journal's files as the server serves them, at `GET <tenant root>/media/<id>`
/// (``ModuleEndpoint/files(path:source:)``): under the same policies as the journal, so only
/// those who may read a file get it (today its owner).
public struct MediaFiles: FileSource {
    /// The endpoint's path under a tenant's root.
    public static let path = "media"

    public init() {}

    public func file(id: UUID, in tx: PostgresTransaction) async throws -> FileDescription? {
        try await MediaStore(tx).media(ids: [id]).first.map {
            FileDescription(id: $0.id, contentType: $0.contentType, byteSize: $0.byteSize, sha256Hex: $0.sha256Hex)
        }
    }

    public func bytes(id: UUID, offset: Int, length: Int?, in tx: PostgresTransaction) async throws -> [UInt8]? {
        try await MediaStore(tx).bytes(id: id, offset: offset, length: length)
    }
}
