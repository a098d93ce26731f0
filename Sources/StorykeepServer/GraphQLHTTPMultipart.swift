import GraphQL
import Hummingbird
import MultipartKit

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
/// multipart-kit's incremental parser: nothing but the files the map names is kept, every part
/// is held to its limit as it arrives, and the whole body to `maxMultipartBodySize`.
struct GraphQLHTTPMultipartRequest {
    /// The `operations` JSON, each file's `null` replaced with its marker.
    var operations: GraphQLValue
    /// The files, by marker.
    var uploads: [String: GraphQLUpload]

    static func read(
        _ request: Request, boundary: String, configuration: GraphQLHTTPConfiguration
    ) async throws -> GraphQLHTTPMultipartRequest {
        guard !boundary.isEmpty, boundary.utf8.count <= 70 else {
            throw GraphQLHTTPFailure.badRequest("The multipart boundary must have 1 to 70 characters.")
        }
        let reader = PartReader(configuration: configuration)
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in reader.header(name: name, value: value) }
        parser.onBody = { reader.body(&$0) }
        parser.onPartComplete = { reader.completePart() }
        var received = 0
        for try await buffer in request.body {
            received += buffer.readableBytes
            guard received <= configuration.maxMultipartBodySize else {
                throw GraphQLHTTPFailure.tooLarge(
                    "The multipart body is larger than \(configuration.maxMultipartBodySize) bytes.")
            }
            do {
                try parser.execute(buffer)
            } catch {
                throw GraphQLHTTPFailure.badRequest("The multipart body is malformed.")
            }
            if let failure = reader.failure { throw failure }
        }
        return try reader.finish()
    }
}

/// Collects the parts as the parser reports them. The parser's callbacks cannot throw, so the
/// first failure is kept and everything after it ignored; `read` checks after each chunk.
private final class PartReader {
    private enum Stage {
        case operations
        case map
        case files
    }

    private let configuration: GraphQLHTTPConfiguration
    private var stage = Stage.operations
    private(set) var failure: GraphQLHTTPFailure?

    // The part being read.
    private var name: String?
    private var filename: String?
    private var contentType: String?
    private var bytes = ByteBuffer()
    private var keepsBody = true

    private var operations: GraphQLValue = .null
    /// The files the map expects, by field name, with the paths they go to.
    private var expected: [String: [[String]]] = [:]
    private var uploads: [String: GraphQLUpload] = [:]

    init(configuration: GraphQLHTTPConfiguration) {
        self.configuration = configuration
    }

    func header(name headerName: String, value: String) {
        guard failure == nil else { return }
        switch headerName.lowercased() {
        case "content-disposition":
            let pieces = GraphQLHTTPMediaType.splitOutsideQuotes(value, on: ";")
            guard pieces.first?.trimmingWhitespace().lowercased() == "form-data",
                let parameters = GraphQLHTTPMediaType.parameters(pieces.dropFirst())
            else { return fail(.badRequest("A multipart part has a malformed Content-Disposition.")) }
            name = parameters.first { $0.name == "name" }?.value
            filename = parameters.first { $0.name == "filename" }?.value
        case "content-type":
            contentType = value.trimmingWhitespace()
        default:
            break
        }
        keepsBody = stage != .files || name.map { expected[$0] != nil } ?? false
    }

    func body(_ chunk: inout ByteBuffer) {
        guard failure == nil, keepsBody else { return }
        let limit = stage == .files ? configuration.maxFileSize : configuration.maxBodySize
        guard bytes.readableBytes + chunk.readableBytes <= limit else {
            let what = stage == .files ? "The file `\(name ?? "")`" : "The `\(name ?? "")` field"
            return fail(.tooLarge("\(what) is larger than \(limit) bytes."))
        }
        bytes.writeBuffer(&chunk)
    }

    func completePart() {
        guard failure == nil else { return }
        defer {
            name = nil
            filename = nil
            contentType = nil
            bytes = ByteBuffer()
            keepsBody = true
        }
        guard let name else { return fail(.badRequest("A multipart part has no name.")) }
        switch stage {
        case .operations:
            guard name == "operations" else {
                return fail(.badRequest("Misordered multipart fields: `operations` must come first, then `map`, then the files."))
            }
            guard let value = json(named: "operations") else { return }
            operations = value
            stage = .map
        case .map:
            guard name == "map" else {
                return fail(.badRequest("Misordered multipart fields: `map` must follow `operations`, before the files."))
            }
            guard let value = json(named: "map") else { return }
            readMap(value)
            stage = .files
        case .files:
            guard expected[name] != nil else { return }
            guard uploads[name] == nil else { return fail(.badRequest("The file `\(name)` is sent twice.")) }
            uploads[name] = GraphQLUpload(
                filename: filename ?? "", contentType: contentType ?? "application/octet-stream", bytes: Array(bytes.readableBytesView))
        }
    }

    /// The operations with every file's marker in place, and the files by marker.
    func finish() throws(GraphQLHTTPFailure) -> GraphQLHTTPMultipartRequest {
        if let failure { throw failure }
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

    private func json(named field: String) -> GraphQLValue? {
        do {
            return try GraphQLValue(json: bytes.readableBytesView, maxDepth: configuration.maxJSONDepth)
        } catch {
            fail(.badRequest("The multipart field `\(field)` is not valid JSON: \(error.message)."))
            return nil
        }
    }

    /// Checks the map: an object of field name to a non-empty array of paths, each leading to
    /// a `null` in the operations.
    private func readMap(_ map: GraphQLValue) {
        guard case .object(let entries) = map else {
            return fail(.badRequest("The multipart field `map` must be an object of field names to arrays of paths."))
        }
        guard entries.count <= configuration.maxFiles else {
            return fail(.tooLarge("The request has more than \(configuration.maxFiles) files."))
        }
        for (field, pathsValue) in entries.entries {
            guard case .list(let paths) = pathsValue, !paths.isEmpty else {
                return fail(.badRequest("The `map` entry `\(field)` must be a non-empty array of paths."))
            }
            var components: [[String]] = []
            for path in paths {
                let keys = path.stringValue?.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                guard let keys, Self.value(in: operations, at: keys[...]) == .null else {
                    return fail(.badRequest(
                        "The `map` entry `\(field)` has a path that does not lead to a null in `operations`: \(path.json)."))
                }
                components.append(keys)
            }
            expected[field] = components
        }
    }

    private func fail(_ failure: GraphQLHTTPFailure) {
        if self.failure == nil { self.failure = failure }
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
