extension TenantFile {
    /// `cors`: the web origins whose browser apps may call this tenant's API. The server's own
    /// part of the file, read whatever modules are on.
    public var cors: CORSPolicy {
        get { self[CORSPolicy.self] }
        set { self[CORSPolicy.self] = newValue }
    }
}

/// `cors:` in a tenant file: which other web origins a browser lets call the tenant's API
/// (Cross-Origin Resource Sharing). The server answers their preflights and marks its responses
/// for them; a page of any other origin gets no CORS headers, so the browser keeps the answer
/// from it. The server enforces nothing else by origin: a client outside a browser sends what it
/// likes, and the bearer token is what protects data.
public struct CORSPolicy: TenantFileValue {
    public static let tenantFileKey = "cors"
    public static let defaultValue = CORSPolicy()

    /// `origins` (default none): exact origins, `scheme://host[:port]` as a browser sends them in
    /// `Origin` (`https://app.example.org`, `http://localhost:5173`): `http` or `https`, a
    /// lowercase host, no path, no trailing slash, each once. No wildcard: responses allow
    /// credentials, and a wildcard with credentials would let any site read them.
    public var origins: [String]

    public init(origins: [String] = []) {
        self.origins = origins
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case origins }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.strictContainer(keyedBy: CodingKeys.self)
        origins = try c.decode([String].self, forKey: .origins, default: [])
        try c.require(
            origins.allSatisfy(Self.isExactOrigin), at: .origins,
            "exact origins such as https://app.example.org or http://localhost:5173 (http or https, lowercase host, optional port, no path, no wildcard)"
        )
        try c.require(Set(origins).count == origins.count, at: .origins, "each origin once")
        try c.require(origins.count <= 100, at: .origins, "at most 100 origins")
    }

    /// True when `origin` is allowed: compared exactly, as browsers send it.
    public func allows(_ origin: String) -> Bool {
        origins.contains(origin)
    }

    /// `http(s)://` and a lowercase host name, IPv4 address or bracketed IPv6 address, with an
    /// optional port: what a browser's `Origin` header holds for a web page.
    static func isExactOrigin(_ origin: String) -> Bool {
        guard origin.utf8.count <= 300,
            let match = origin.wholeMatch(of: /https?:\/\/([a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*|\[[0-9a-f:.]+\])(:(?<port>[0-9]{1,5}))?/)
        else { return false }
        return match.output.port.map { Int($0)! <= 65535 } ?? true
    }
}
