/// The limits and switches of GraphQL over HTTP. The defaults suit a public endpoint. An
/// executor may lower the upload limit per request (``GraphQLHTTPExecutor/uploadLimit(for:context:)``).
public struct GraphQLHTTPConfiguration: Sendable {
    /// The largest `application/json` body (lowered to the request context's `maxUploadSize`
    /// when that is smaller), and the largest `operations` or `map` field of a multipart
    /// request, in bytes. Larger requests get 413.
    public var maxBodySize: Int
    /// How deeply JSON arrays and objects may nest in bodies, `variables` and `extensions`;
    /// deeper JSON gets 400 before anything else reads it.
    public var maxJSONDepth: Int
    /// The most operations one batch (a JSON array of operations) may hold; 0 turns batching
    /// off, and a batch then gets 400.
    public var maxBatchSize: Int
    /// Apollo's automatic persisted queries: how many queries the store keeps, and how many
    /// bytes of query text in all. A capacity of 0 turns persisted queries off (requests
    /// using them get `PersistedQueryNotSupported`).
    public var persistedQueryCapacity: Int
    public var persistedQueryMaxBytes: Int
    /// Uploads (the GraphQL multipart request specification): on or off, the largest file,
    /// the most files, and the largest multipart body in all, in bytes. Larger requests get 413,
    /// before their body is read when their Content-Length tells, else as soon as the bytes
    /// read pass the limit.
    public var uploadsEnabled: Bool
    public var maxFileSize: Int
    public var maxFiles: Int
    public var maxMultipartBodySize: Int
    /// Whether a multipart request must carry a header that a browser cannot send across
    /// origins without a CORS preflight (`GraphQL-Require-Preflight`, `Apollo-Require-Preflight`
    /// or `X-Apollo-Operation-Name`, non-empty). `multipart/form-data` is a "simple" request
    /// that any web page can send with the user's cookies, so without this an upload mutation
    /// could be forged from another site.
    public var multipartRequiresPreflightHeader: Bool

    public init(
        maxBodySize: Int = 1 << 20,
        maxJSONDepth: Int = 64,
        maxBatchSize: Int = 0,
        persistedQueryCapacity: Int = 1000,
        persistedQueryMaxBytes: Int = 8 << 20,
        uploadsEnabled: Bool = true,
        maxFileSize: Int = 10 << 20,
        maxFiles: Int = 10,
        maxMultipartBodySize: Int = 32 << 20,
        multipartRequiresPreflightHeader: Bool = true
    ) {
        self.maxBodySize = maxBodySize
        self.maxJSONDepth = maxJSONDepth
        self.maxBatchSize = maxBatchSize
        self.persistedQueryCapacity = persistedQueryCapacity
        self.persistedQueryMaxBytes = persistedQueryMaxBytes
        self.uploadsEnabled = uploadsEnabled
        self.maxFileSize = maxFileSize
        self.maxFiles = maxFiles
        self.maxMultipartBodySize = maxMultipartBodySize
        self.multipartRequiresPreflightHeader = multipartRequiresPreflightHeader
    }
}

/// The limits one multipart request is held to: the configuration's, lowered by the executor's
/// upload limit for the request when it has one. With a request limit, the files together may
/// have that many bytes, and the body that many plus `maxBodySize` (room for the `operations`
/// and `map` fields, part headers and boundaries).
struct GraphQLHTTPUploadLimits: Equatable {
    /// The most bytes of one file.
    var maxFileSize: Int
    /// The most bytes of all the request's files together.
    var maxTotalFileSize: Int
    /// The most bytes of the whole body.
    var maxBodySize: Int
    /// The most bytes of the `operations` field, and of the `map` field.
    var maxFieldSize: Int
    var maxFiles: Int
    /// The executor's limit for this request, for the messages.
    let requestLimit: Int?

    init(configuration: GraphQLHTTPConfiguration, requestLimit: Int?) {
        let requestLimit = requestLimit.map { max($0, 0) }
        self.requestLimit = requestLimit
        maxFileSize = min(configuration.maxFileSize, requestLimit ?? .max)
        maxTotalFileSize = requestLimit ?? .max
        let withFields = requestLimit.map { $0.addingReportingOverflow(configuration.maxBodySize) }
        maxBodySize = min(configuration.maxMultipartBodySize, withFields.map { $0.overflow ? .max : $0.partialValue } ?? .max)
        maxFieldSize = configuration.maxBodySize
        maxFiles = configuration.maxFiles
    }

    /// Refuses, before it is read, a body whose `Content-Length` is over `maxBodySize`.
    func check(contentLength: String?) throws(GraphQLHTTPFailure) {
        // The HTTP parser has checked the header's syntax; a value too large for Int is too large.
        guard let contentLength, contentLength.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return }
        guard let length = Int(contentLength), length <= maxBodySize else { throw bodyTooLarge }
    }

    /// The refusal of a body over `maxBodySize`, naming the request's upload limit when there is one.
    var bodyTooLarge: GraphQLHTTPFailure {
        guard let requestLimit else { return .tooLarge("The multipart body is larger than \(maxBodySize) bytes.") }
        return .tooLarge("The upload is larger than this endpoint accepts: at most \(Self.describe(requestLimit)) of files per request.")
    }

    func fileTooLarge(_ field: String) -> GraphQLHTTPFailure {
        .tooLarge("The file `\(field)` is larger than the limit of \(Self.describe(maxFileSize)).")
    }

    var filesTooLarge: GraphQLHTTPFailure {
        .tooLarge("The files of this request are larger than the limit of \(Self.describe(maxTotalFileSize)) in all.")
    }

    /// `25 MiB`, or `1000 bytes` when not a whole number of MiB.
    static func describe(_ bytes: Int) -> String {
        bytes > 0 && bytes % 1_048_576 == 0 ? "\(bytes / 1_048_576) MiB" : "\(bytes) bytes"
    }
}
