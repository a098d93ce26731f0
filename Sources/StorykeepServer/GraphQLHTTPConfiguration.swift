public import Storykeep

/// The limits and switches of GraphQL over HTTP. The defaults suit a public endpoint; a tenant
/// may lower or raise them (upload limits come from the tenant's file).
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
    /// the most files, and the largest multipart body in all, in bytes.
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

extension GraphQLHTTPConfiguration {
    /// A tenant endpoint's: the files of an upload up to the server's ceiling (`uploads.maxBytes`),
    /// the multipart body one such file and a little more. Each tenant's own lower limit
    /// (`uploads.maxMegabytes`) is checked where a file is stored, and answered with a GraphQL
    /// error naming the field, so that a file a little too large is told apart from an abuse.
    public static func tenant(_ config: StorykeepConfig) -> GraphQLHTTPConfiguration {
        GraphQLHTTPConfiguration(
            maxBodySize: config.http.bodyLimitBytes, maxFileSize: config.uploads.maxBytes, maxFiles: 10,
            maxMultipartBodySize: config.uploads.maxBytes + (1 << 20))
    }
}
