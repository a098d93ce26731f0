/// A file sent with a request, as a resolver receives it: the `Upload` scalar of the GraphQL
/// multipart request specification (https://github.com/jaydenseric/graphql-multipart-request-spec),
/// which a transport (GraphQL over HTTP, in `StorykeepServer`) reads.
///
/// A schema declares `scalar Upload` and calls `GraphQLUpload.configureScalar(in:)` once; a
/// field then takes an `Upload` argument (`uploadAvatar(file: Upload!)`) and its resolver reads
/// the file with `try GraphQLUpload(arguments["file"])`. Files live in memory for the request.
///
/// How the file reaches the resolver: GraphQL values are JSON, so the transport puts a marker
/// string where the multipart `map` places a file in the variables, and runs the request with
/// its files in ``withFiles(_:_:)`` (a task-local value, inherited by every child task the
/// executor starts). A marker names a file of the same request only; anything else is refused
/// by the scalar (`Upload value invalid.`), so JSON requests cannot pass an `Upload`.
public struct GraphQLUpload: Sendable {
    /// The file name the client gave (`filename` of the part's `Content-Disposition`).
    public var filename: String
    /// The part's `Content-Type`, `application/octet-stream` when it gave none.
    public var contentType: String
    public var bytes: [UInt8]

    public init(filename: String, contentType: String, bytes: [UInt8]) {
        self.filename = filename
        self.contentType = contentType
        self.bytes = bytes
    }

    /// The file an `Upload` argument's value names, in the request being executed.
    public init(_ value: GraphQLValue?) throws {
        guard case .string(let marker) = value ?? .null, let upload = Self.current[marker] else {
            throw GraphQLError(message: "Upload value invalid.")
        }
        self = upload
    }

    /// Gives the schema's `Upload` scalar (if it declares one) its coercion: a variable value
    /// must name a file of the request; literals and output are refused.
    public static func configureScalar(in schema: GraphQLSchema, named name: String = "Upload") {
        guard case .scalar(let scalar) = schema.type(named: name) else { return }
        scalar.parseValue = { value in
            guard case .string(let marker) = value, current[marker] != nil else {
                throw GraphQLError(message: "Upload value invalid.")
            }
            return value
        }
        scalar.parseLiteral = { _ in throw GraphQLError(message: "Upload literal unsupported.") }
        scalar.serialize = { _ in throw GraphQLError(message: "Upload serialization unsupported.") }
    }

    /// Runs `body` (a request's execution) with `files`, by marker, visible to its resolvers.
    public static func withFiles<T>(_ files: [String: GraphQLUpload], _ body: () async throws -> T) async rethrows -> T {
        try await $current.withValue(files, operation: body)
    }

    /// The files of the request being executed, by marker.
    @TaskLocal static var current: [String: GraphQLUpload] = [:]

    /// The marker for the file sent in the multipart field `field`.
    public static func marker(forField field: String) -> GraphQLValue {
        .string("upload:" + field)
    }
}
