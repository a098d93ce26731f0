extension TenantFile {
    /// `rateLimits`: how fast one address or one person may call. The server's own part of the
    /// file, read whatever modules are on.
    public var rateLimits: RateLimitPolicy {
        get { self[RateLimitPolicy.self] }
        set { self[RateLimitPolicy.self] = newValue }
    }
}

/// `rateLimits:` in a tenant file: token buckets, each a number a minute (also the burst allowed
/// at once), counted by each server process on its own (see ``TokenBuckets``). An address is the
/// client's, as `http.trustedProxies` lets the server see it. Over a limit, GraphQL answers
/// RATE_LIMITED with `extensions.retryAfterSeconds`, other endpoints 429 with `Retry-After`.
public struct RateLimitPolicy: TenantFileValue {
    public static let tenantFileKey = "rateLimits"
    public static let defaultValue = RateLimitPolicy()

    /// `failedLoginsPerMinute` (default 20, 1–10000): failed logins and activations from one
    /// address. Only failures count, on top of each name's own lockout: a class logging in
    /// together behind one school address passes, password spraying across many names stops.
    public var failedLoginsPerMinute: Int
    /// `mutationsPerMinutePerPerson` (default 300, 1–100000): mutations of one logged-in person.
    public var mutationsPerMinutePerPerson: Int
    /// `mutationsPerMinutePerAddress` (default 3000, 1–1000000): mutations from one address,
    /// anyone's (a children's home or a school shares one).
    public var mutationsPerMinutePerAddress: Int
    /// `uploadsPerMinute` (default 60, 1–100000): GraphQL multipart requests (files) from one address.
    public var uploadsPerMinute: Int
    /// `tokenRequestsPerMinute` (default 30, 1–100000): requests to the OAuth token endpoint
    /// from one address.
    public var tokenRequestsPerMinute: Int

    public init(
        failedLoginsPerMinute: Int = 20, mutationsPerMinutePerPerson: Int = 300, mutationsPerMinutePerAddress: Int = 3000,
        uploadsPerMinute: Int = 60, tokenRequestsPerMinute: Int = 30
    ) {
        self.failedLoginsPerMinute = failedLoginsPerMinute
        self.mutationsPerMinutePerPerson = mutationsPerMinutePerPerson
        self.mutationsPerMinutePerAddress = mutationsPerMinutePerAddress
        self.uploadsPerMinute = uploadsPerMinute
        self.tokenRequestsPerMinute = tokenRequestsPerMinute
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case failedLoginsPerMinute, mutationsPerMinutePerPerson, mutationsPerMinutePerAddress, uploadsPerMinute, tokenRequestsPerMinute
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        let d = RateLimitPolicy()
        failedLoginsPerMinute = try c.decode(Int.self, forKey: .failedLoginsPerMinute, default: d.failedLoginsPerMinute, in: 1...10_000, "a number a minute")
        mutationsPerMinutePerPerson = try c.decode(
            Int.self, forKey: .mutationsPerMinutePerPerson, default: d.mutationsPerMinutePerPerson, in: 1...100_000, "a number a minute")
        mutationsPerMinutePerAddress = try c.decode(
            Int.self, forKey: .mutationsPerMinutePerAddress, default: d.mutationsPerMinutePerAddress, in: 1...1_000_000, "a number a minute")
        uploadsPerMinute = try c.decode(Int.self, forKey: .uploadsPerMinute, default: d.uploadsPerMinute, in: 1...100_000, "a number a minute")
        tokenRequestsPerMinute = try c.decode(
            Int.self, forKey: .tokenRequestsPerMinute, default: d.tokenRequestsPerMinute, in: 1...100_000, "a number a minute")
    }
}
