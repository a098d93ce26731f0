import Foundation
public import Hummingbird
import Postgres
public import Storykeep

/// `GET <tenant root>/<path>/<id>`: a module's stored file (``ModuleEndpoint/files(path:source:)``,
/// the journal's media at `media/<id>`), with `Authorization: Bearer <token>`, for those who may
/// read it: one transaction as the token's person, whose row-level security decides.
///
/// Browsers seek in audio and video with Range requests: a single `bytes=` range gets 206 with
/// `Content-Range`, one outside the file 416; several ranges get the whole file (which HTTP
/// allows). The SHA-256 is the `ETag`, so `If-None-Match` gets 304 (reading no bytes) and
/// `If-Range` is honoured. Responses are `Cache-Control: private` (never in a shared cache) and
/// `nosniff` (the stored type, recognised from the content at upload, is the only one a browser
/// may use).
///
/// With `links` (``ModuleEndpoint/signedFiles(path:source:links:)``) the file is read without a
/// token, in the context its link's signature gives; a link that is not valid gets 403.
public struct FilesEndpoint: TenantEndpoint {
    public let path: String
    public let source: any FileSource
    public let graphQL: TenantGraphQL
    /// Signed links instead of a bearer token; nil for the token.
    public let links: (any SignedFileLinks)?

    public init(path: String, source: any FileSource, graphQL: TenantGraphQL, links: (any SignedFileLinks)? = nil) {
        self.path = path
        self.source = source
        self.graphQL = graphQL
        self.links = links
    }

    public func register(on group: RouterGroup<TenantRequestContext>) {
        group.get("\(path)/:id") { request, context in
            try await respond(to: request, context: context)
        }
    }

    /// What became of a download.
    private enum Outcome: Sendable {
        case unauthenticated
        /// A signed link that is not valid (changed, of another tenant or file, expired).
        case invalidLink
        case notFound
        case file(FileDescription, bytes: [UInt8], selection: FileByteSelection)
        /// Reading took longer than the request's statement timeout (`database.statementTimeoutSeconds`).
        case timedOut
    }

    func respond(to request: Request, context: TenantRequestContext) async throws -> Response {
        let rangeHeader = request.headers[.range]
        let ifRange = request.headers[.ifRange]
        let ifNoneMatch = request.headers[.ifNoneMatch]
        let outcome = try await read(id: context.parameters.get("id") ?? "", request: request, context: context) { file in
            // Which bytes to read, once the file's size and tag are known: none for a client that has them.
            if Self.matches(ifNoneMatch, file) { return .nothing }
            guard let rangeHeader, ifRange == nil || ifRange == Self.etag(file) else { return .whole }
            return ByteRange.select(rangeHeader, size: file.byteSize)
        }
        switch outcome {
        case .unauthenticated:
            var headers = HTTPFields()
            headers[.wwwAuthenticate] = "Bearer"
            throw HTTPError(.unauthorized, headers: headers, message: "Please log in.")
        case .invalidLink:
            throw HTTPError(.forbidden, message: "This link is not valid, or it has expired.")
        case .notFound:
            throw HTTPError(.notFound, message: "No such file.")
        case .timedOut:
            throw HTTPError(
                .serviceUnavailable, headers: [.retryAfter: "1"], message: "That took too long, so it was stopped. Please try again.")
        case .file(let file, let bytes, let selection):
            var headers = HTTPFields()
            headers[.eTag] = Self.etag(file)
            headers[.cacheControl] = "private, max-age=3600"
            headers[.xContentTypeOptions] = "nosniff"
            headers[.acceptRanges] = "bytes"
            headers[.contentDisposition] = "inline; filename=\"\(file.id.uuidString.lowercased())\(FileExtensions.of(file.contentType))\""
            switch selection {
            case .nothing where Self.matches(ifNoneMatch, file):
                return Response(status: .notModified, headers: headers)
            case .nothing:
                headers[.contentRange] = "bytes */\(file.byteSize)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            case .part(let range):
                headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(file.byteSize)"
                return Self.body(bytes, status: .partialContent, type: file.contentType, headers: headers)
            case .whole:
                return Self.body(bytes, status: .ok, type: file.contentType, headers: headers)
            }
        }
    }

    /// The file `id` as the request's person (or its signed link) may read it, in one
    /// transaction: the session or the link, the file's description, then the bytes `select`
    /// chooses once its size is known.
    private func read(
        id: String, request: Request, context: TenantRequestContext, select: @Sendable (FileDescription) -> FileByteSelection
    ) async throws -> Outcome {
        let uuid = UUID(uuidString: id)
        do {
            if let links {
                guard let uuid else { return .invalidLink }
                let query = Dictionary(request.uri.queryParameters.map { (String($0.key), String($0.value)) }) { first, _ in first }
                let services = graphQL.services
                guard let access = links.context(forFile: uuid, query: query, tenant: context.tenant, now: services.now()) else {
                    return .invalidLink
                }
                return try await services.pool.transaction(settings: services.requestSettings(access)) { tx in
                    try await read(uuid, in: tx, select: select)
                }
            }
            guard case .bearer(let token) = context.credential else { return .unauthenticated }
            return try await graphQL.authenticated(token, tenant: context.tenant) { viewer, tx in
                guard viewer != nil else { return .unauthenticated }
                return try await read(uuid, in: tx, select: select)
            }
        } catch let error as PostgresError where error.sqlState == PostgresError.SQLState.queryCanceled {
            return .timedOut
        }
    }

    private func read(_ id: UUID?, in tx: PostgresTransaction, select: @Sendable (FileDescription) -> FileByteSelection) async throws -> Outcome {
        guard let id, let file = try await source.file(id: id, in: tx) else { return .notFound }
        let selection = select(file)
        let bytes: [UInt8]?
        switch selection {
        case .nothing: return .file(file, bytes: [], selection: selection)
        case .whole: bytes = try await source.bytes(id: id, offset: 0, length: nil, in: tx)
        case .part(let range): bytes = try await source.bytes(id: id, offset: range.lowerBound, length: range.count, in: tx)
        }
        // Gone since its description was read (purged): as if it had never been.
        guard let bytes else { return .notFound }
        return .file(file, bytes: bytes, selection: selection)
    }

    private static func body(_ bytes: [UInt8], status: HTTPResponse.Status, type: String, headers: HTTPFields) -> Response {
        var headers = headers
        headers[.contentType] = type
        headers[.contentLength] = String(bytes.count)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Whether an `If-None-Match` header names the file's tag (or any, `*`), by the weak comparison
    /// RFC 9110 (13.1.2) asks of it: `W/"<sha>"` matches too, as a cache that kept the tag weak sends it.
    private static func matches(_ ifNoneMatch: String?, _ info: FileDescription) -> Bool {
        guard let ifNoneMatch else { return false }
        return ifNoneMatch.split(separator: ",").contains { tag in
            let tag = tag.trimmingCharacters(in: .whitespaces)
            return (tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag) == etag(info) || tag == "*"
        }
    }

    /// A strong ETag: the content's SHA-256.
    static func etag(_ info: FileDescription) -> String {
        "\"" + info.sha256Hex + "\""
    }
}

/// Which bytes of a file a download sends, chosen once its size is known.
enum FileByteSelection: Sendable, Equatable {
    case whole
    /// Offsets within the file.
    case part(Range<Int>)
    /// None: the client has them already (`If-None-Match`), or the range asked for lies
    /// outside the file.
    case nothing
}

/// A `Range: bytes=…` header (RFC 9110 §14.1.2) against a file's size, in arithmetic that
/// cannot overflow whatever the header holds (a position may have any number of digits).
enum ByteRange {
    /// One range, within the file: a last position past the end is clamped to it, and a suffix
    /// range longer than the file is the whole file. `.nothing` (416) for a range that starts at
    /// or after the end, a zero-length suffix, or any range of an empty file. The whole file
    /// for what this server does not serve as a part: several ranges, another unit, or a
    /// malformed header (RFC 9110 lets a server ignore `Range`).
    static func select(_ header: String, size: Int) -> FileByteSelection {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("bytes="), !trimmed.contains(",") else { return .whole }
        let spec = trimmed.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else { return .whole }
        switch (position(parts[0]), position(parts[1])) {
        case (.some(let first?), .some(let last)):
            if let last, last < first { return .whole }
            guard first < size else { return .nothing }
            // `size - 1` is the last byte; `first < size` keeps it at least `first`.
            return .part(first..<(min(last ?? size - 1, size - 1) + 1))
        case (.some(nil), .some(let suffix?)):
            guard suffix > 0, size > 0 else { return .nothing }
            return .part((size - min(suffix, size))..<size)
        default:
            return .whole
        }
    }

    /// A position: `.some(nil)` when empty, `nil` when not all ASCII digits (malformed); digits
    /// beyond `Int.max` saturate there, which lies past the end of any file.
    private static func position(_ text: Substring) -> Int?? {
        guard !text.isEmpty else { return .some(nil) }
        var value = 0
        for byte in text.utf8 {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (shifted, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, overflowAdding) = shifted.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            value = overflow || overflowAdding ? Int.max : next
        }
        return .some(value)
    }
}
