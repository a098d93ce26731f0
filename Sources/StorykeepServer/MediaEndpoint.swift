import Foundation
public import Hummingbird
public import Storykeep

/// `GET /t/<slug>/media/<id>` (and `/media/<id>` on a tenant's hosts): a journal's file, with
/// `Authorization: Bearer <token>`, for those who may read it (``MediaDownloads``).
///
/// Browsers seek in audio and video with Range requests: a single `bytes=` range gets 206 with
/// `Content-Range`, one outside the file 416; several ranges get the whole file (which HTTP
/// allows). The SHA-256 is the `ETag`, so `If-None-Match` gets 304 and `If-Range` is honoured.
/// Responses are `Cache-Control: private` (never in a shared cache) and `nosniff` (the stored
/// type, recognised from the content at upload, is the only one a browser may use).
public struct MediaEndpoint: TenantEndpoint {
    public let downloads: MediaDownloads

    public init(downloads: MediaDownloads) {
        self.downloads = downloads
    }

    public func register(on group: RouterGroup<TenantRequestContext>) {
        group.get("media/:id") { request, context in
            try await respond(to: request, context: context)
        }
    }

    func respond(to request: Request, context: TenantRequestContext) async throws -> Response {
        let id = context.parameters.get("id") ?? ""
        let rangeHeader = request.headers[.range]
        let ifRange = request.headers[.ifRange]
        let ifNoneMatch = request.headers[.ifNoneMatch]
        // Which bytes to read, once the file's size and tag are known: none for a client that has them.
        let outcome = try await downloads.read(
            id: id, tenant: context.tenant, authorization: request.headers[.authorization]
        ) { info in
            if Self.matches(ifNoneMatch, info) { return .nothing }
            guard let rangeHeader, ifRange == nil || ifRange == Self.etag(info) else { return .whole }
            return ByteRange.select(rangeHeader, size: info.byteSize)
        }
        switch outcome {
        case .unauthenticated:
            var headers = HTTPFields()
            headers[.wwwAuthenticate] = "Bearer"
            throw HTTPError(.unauthorized, headers: headers, message: "Please log in.")
        case .notFound:
            throw HTTPError(.notFound, message: "No such file.")
        case .timedOut:
            throw HTTPError(
                .serviceUnavailable, headers: [.retryAfter: "1"], message: "That took too long, so it was stopped. Please try again.")
        case .file(let info, let bytes, let selection):
            var headers = HTTPFields()
            headers[.eTag] = Self.etag(info)
            headers[.cacheControl] = "private, max-age=3600"
            headers[.xContentTypeOptions] = "nosniff"
            headers[.acceptRanges] = "bytes"
            headers[.contentDisposition] = "inline; filename=\"\(info.id.uuidString.lowercased())\(Self.fileExtension(info.contentType))\""
            switch selection {
            case .nothing where Self.matches(ifNoneMatch, info):
                return Response(status: .notModified, headers: headers)
            case .nothing:
                headers[.contentRange] = "bytes */\(info.byteSize)"
                return Response(status: .rangeNotSatisfiable, headers: headers)
            case .part(let range):
                headers[.contentRange] = "bytes \(range.lowerBound)-\(range.upperBound - 1)/\(info.byteSize)"
                return Self.body(bytes, status: .partialContent, type: info.contentType, headers: headers)
            case .whole:
                return Self.body(bytes, status: .ok, type: info.contentType, headers: headers)
            }
        }
    }

    private static func body(_ bytes: [UInt8], status: HTTPResponse.Status, type: String, headers: HTTPFields) -> Response {
        var headers = headers
        headers[.contentType] = type
        headers[.contentLength] = String(bytes.count)
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// Whether an `If-None-Match` header names the file's tag (or any, `*`).
    private static func matches(_ ifNoneMatch: String?, _ info: MediaInfo) -> Bool {
        guard let ifNoneMatch else { return false }
        return ifNoneMatch.split(separator: ",").contains { tag in
            let tag = tag.trimmingCharacters(in: .whitespaces)
            return tag == etag(info) || tag == "*"
        }
    }

    /// A strong ETag: the content's SHA-256.
    static func etag(_ info: MediaInfo) -> String {
        "\"" + info.sha256Hex + "\""
    }

    private static func fileExtension(_ contentType: String) -> String {
        let known = [
            "image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp", "image/heic": ".heic",
            "audio/mpeg": ".mp3", "audio/aac": ".aac", "audio/mp4": ".m4a", "audio/ogg": ".ogg", "audio/wav": ".wav",
            "audio/flac": ".flac", "audio/webm": ".webm", "video/mp4": ".mp4", "video/quicktime": ".mov",
            "video/webm": ".webm", "video/ogg": ".ogv",
        ]
        return known[contentType] ?? ""
    }
}

/// A `Range: bytes=…` header (RFC 9110 §14.1.2) against a file's size, in arithmetic that
/// cannot overflow whatever the header holds (a position may have any number of digits).
enum ByteRange {
    /// One range, within the file: a last position past the end is clamped to it, and a suffix
    /// range longer than the file is the whole file. `.nothing` (416) for a range that starts at
    /// or after the end, a zero-length suffix, or any range of an empty file. The whole file
    /// for what this server does not serve as a part: several ranges, another unit, or a
    /// malformed header (RFC 9110 lets a server ignore `Range`).
    static func select(_ header: String, size: Int) -> MediaByteSelection {
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
