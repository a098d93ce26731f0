import GraphQL
import Hummingbird

/// Reads a request of the GraphQL multipart request specification
/// (https://github.com/jaydenseric/graphql-multipart-request-spec):
///
/// ```
/// --boundary  name="operations"  {"query":"mutation($file: Upload!) {…}","variables":{"file":null}}
/// --boundary  name="map"         {"0":["variables.file"]}
/// --boundary  name="0"; filename="a.png"  <bytes>
/// ```
///
/// `operations` and `map` come first, then the files. The body is streamed through
/// ``GraphQLHTTPMultipartScanner``: nothing but the files the map names is kept, and every part,
/// the files together and the whole body are held to their ``GraphQLHTTPUploadLimits`` as the
/// bytes arrive, so that a request past a limit is answered without reading the rest of it.
struct GraphQLHTTPMultipartRequest {
    /// The `operations` JSON, each file's `null` replaced with its marker.
    var operations: GraphQLValue
    /// The files, by marker.
    var uploads: [String: GraphQLUpload]

    static func read(
        _ request: Request, boundary: String, limits: GraphQLHTTPUploadLimits, maxJSONDepth: Int
    ) async throws -> GraphQLHTTPMultipartRequest {
        var scanner: GraphQLHTTPMultipartScanner
        do {
            scanner = try GraphQLHTTPMultipartScanner(boundary: boundary)
        } catch {
            throw GraphQLHTTPFailure.badRequest("The multipart boundary must have 1 to 70 characters of those RFC 2046 allows.")
        }
        let contentLength = request.headers[.contentLength].flatMap { Int($0) }
        let reader = PartReader(limits: limits, maxJSONDepth: maxJSONDepth, bodySize: contentLength)
        var received = 0
        do {
            for try await buffer in request.body {
                received += buffer.readableBytes
                guard received <= limits.maxBodySize else { throw limits.bodyTooLarge }
                try scanner.scan(buffer) { try reader.read($0) }
                if scanner.isComplete { break }
            }
            try scanner.finish()
        } catch let malformed as GraphQLHTTPMultipartScanner.Malformed {
            throw GraphQLHTTPFailure.badRequest("The multipart body is malformed: \(malformed.reason).")
        }
        return try reader.finish()
    }
}

/// Collects the parts as the scanner reports them, and refuses the request (throws) as soon as
/// one is out of place or over its limit.
private final class PartReader {
    private enum Stage {
        case operations
        case map
        case files
    }

    private let limits: GraphQLHTTPUploadLimits
    private let maxJSONDepth: Int
    private var stage = Stage.operations

    // The part being read.
    private var name: String?
    private var filename: String?
    private var contentType: String?
    private var bytes: [UInt8] = []
    private var keepsBody = true
    /// The bytes of the files the map names, so far.
    private var fileBytes = 0

    private var operations: GraphQLValue = .null
    /// The files the map expects, by field name, with the paths they go to.
    private var expected: [String: [[String]]] = [:]
    private var uploads: [String: GraphQLUpload] = [:]

    /// The body's size when its Content-Length tells: what a file's buffer reserves at once.
    private let bodySize: Int?

    init(limits: GraphQLHTTPUploadLimits, maxJSONDepth: Int, bodySize: Int?) {
        self.limits = limits
        self.maxJSONDepth = maxJSONDepth
        self.bodySize = bodySize
    }

    func read(_ event: GraphQLHTTPMultipartScanner.Event) throws(GraphQLHTTPFailure) {
        switch event {
        case .headers(let headers):
            for (name, value) in headers { try header(name: name, value: value) }
            keepsBody = stage != .files || name.map { expected[$0] != nil } ?? false
        case .body(let chunk):
            try body(chunk)
        case .end:
            try completePart()
        }
    }

    private func header(name headerName: String, value: String) throws(GraphQLHTTPFailure) {
        switch headerName.lowercased() {
        case "content-disposition":
            let pieces = GraphQLHTTPMediaType.splitOutsideQuotes(value, on: ";")
            guard pieces.first?.trimmingWhitespace().lowercased() == "form-data",
                let parameters = GraphQLHTTPMediaType.parameters(pieces.dropFirst())
            else { throw .badRequest("A multipart part has a malformed Content-Disposition.") }
            name = parameters.first { $0.name == "name" }?.value
            filename = parameters.first { $0.name == "filename" }?.value
        case "content-type":
            contentType = value.trimmingWhitespace()
        default:
            break
        }
    }

    private func body(_ chunk: ByteBuffer) throws(GraphQLHTTPFailure) {
        guard keepsBody else { return }
        let size = bytes.count + chunk.readableBytes
        guard stage == .files else {
            guard size <= limits.maxFieldSize else {
                throw .tooLarge("The `\(name ?? "")` field is larger than \(limits.maxFieldSize) bytes.")
            }
            Self.append(chunk, to: &bytes)
            return
        }
        fileBytes += chunk.readableBytes
        guard size <= limits.maxFileSize else { throw limits.fileTooLarge(name ?? "") }
        guard fileBytes <= limits.maxTotalFileSize else { throw limits.filesTooLarge }
        if bytes.isEmpty { bytes.reserveCapacity(min(limits.maxFileSize, bodySize ?? 1 << 20)) }
        Self.append(chunk, to: &bytes)
    }

    /// One copy, with `memcpy`.
    private static func append(_ chunk: ByteBuffer, to bytes: inout [UInt8]) {
        chunk.withUnsafeReadableBytes { bytes.append(contentsOf: $0.assumingMemoryBound(to: UInt8.self)) }
    }

    private func completePart() throws(GraphQLHTTPFailure) {
        defer {
            name = nil
            filename = nil
            contentType = nil
            bytes = []
            keepsBody = true
        }
        guard let name else { throw .badRequest("A multipart part has no name.") }
        switch stage {
        case .operations:
            guard name == "operations" else {
                throw .badRequest("Misordered multipart fields: `operations` must come first, then `map`, then the files.")
            }
            operations = try json(named: "operations")
            stage = .map
        case .map:
            guard name == "map" else {
                throw .badRequest("Misordered multipart fields: `map` must follow `operations`, before the files.")
            }
            try readMap(try json(named: "map"))
            stage = .files
        case .files:
            guard expected[name] != nil else { return }
            guard uploads[name] == nil else { throw .badRequest("The file `\(name)` is sent twice.") }
            uploads[name] = GraphQLUpload(filename: filename ?? "", contentType: contentType ?? "application/octet-stream", bytes: bytes)
        }
    }

    /// The operations with every file's marker in place, and the files by marker.
    func finish() throws(GraphQLHTTPFailure) -> GraphQLHTTPMultipartRequest {
        switch stage {
        case .operations: throw .badRequest("Missing multipart field `operations`.")
        case .map: throw .badRequest("Missing multipart field `map`.")
        case .files: break
        }
        var byMarker: [String: GraphQLUpload] = [:]
        for (field, paths) in expected.sorted(by: { $0.key < $1.key }) {
            guard let upload = uploads[field] else { throw .badRequest("File missing in the request: `\(field)`.") }
            let marker = GraphQLUpload.marker(forField: field)
            for path in paths {
                operations = Self.replacing(in: operations, at: path[...], with: marker)
            }
            if case .string(let key) = marker { byMarker[key] = upload }
        }
        return GraphQLHTTPMultipartRequest(operations: operations, uploads: byMarker)
    }

    private func json(named field: String) throws(GraphQLHTTPFailure) -> GraphQLValue {
        do {
            return try GraphQLValue(json: bytes, maxDepth: maxJSONDepth)
        } catch {
            throw .badRequest("The multipart field `\(field)` is not valid JSON: \(error.message).")
        }
    }

    /// Checks the map: an object of field name to a non-empty array of paths, each leading to
    /// a `null` in the operations.
    private func readMap(_ map: GraphQLValue) throws(GraphQLHTTPFailure) {
        guard case .object(let entries) = map else {
            throw .badRequest("The multipart field `map` must be an object of field names to arrays of paths.")
        }
        guard entries.count <= limits.maxFiles else {
            throw .tooLarge("The request has more than \(limits.maxFiles) files.")
        }
        for (field, pathsValue) in entries.entries {
            guard case .list(let paths) = pathsValue, !paths.isEmpty else {
                throw .badRequest("The `map` entry `\(field)` must be a non-empty array of paths.")
            }
            var components: [[String]] = []
            for path in paths {
                let keys = path.stringValue?.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                guard let keys, Self.value(in: operations, at: keys[...]) == .null else {
                    throw .badRequest("The `map` entry `\(field)` has a path that does not lead to a null in `operations`: \(path.json).")
                }
                components.append(keys)
            }
            expected[field] = components
        }
    }

    /// The value at a path of object keys and list indices; nil when the path leads nowhere.
    private static func value(in value: GraphQLValue, at path: ArraySlice<String>) -> GraphQLValue? {
        guard let first = path.first else { return value }
        switch value {
        case .object(let object):
            return object[first].flatMap { Self.value(in: $0, at: path.dropFirst()) }
        case .list(let items):
            guard let index = Int(first), items.indices.contains(index) else { return nil }
            return Self.value(in: items[index], at: path.dropFirst())
        default:
            return nil
        }
    }

    private static func replacing(in value: GraphQLValue, at path: ArraySlice<String>, with new: GraphQLValue) -> GraphQLValue {
        guard let first = path.first else { return new }
        switch value {
        case .object(var object):
            if let child = object[first] { object[first] = replacing(in: child, at: path.dropFirst(), with: new) }
            return .object(object)
        case .list(var items):
            if let index = Int(first), items.indices.contains(index) {
                items[index] = replacing(in: items[index], at: path.dropFirst(), with: new)
            }
            return .list(items)
        default:
            return value
        }
    }
}
