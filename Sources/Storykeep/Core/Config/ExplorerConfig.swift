public import Configuration

extension StorykeepConfig {
    /// The GraphQL explorer (GraphiQL) a browser gets at a tenant's GraphQL URL.
    public struct Explorer: Sendable {
        /// `explorer.enabled` (environment: `STORYKEEP_EXPLORER_ENABLED`; default false, true for
        /// `make run`): whether `GET <tenant>/graphql` with `Accept: text/html` answers the page.
        public var enabled: Bool
        /// `explorer.assetsUrl` (environment: `STORYKEEP_EXPLORER_ASSETS_URL`): an `http` or
        /// `https` URL of a folder holding the page's four files under their npm names
        /// (`react.production.min.js`, `react-dom.production.min.js`, `graphiql.min.js`,
        /// `graphiql.min.css`), for an agency that hosts its own; nil (an empty value, the
        /// default) loads the pinned versions from the jsDelivr CDN.
        public var assetsURL: String?

        public init(reader: ConfigReader) throws {
            enabled = try reader.requiredBool(forKey: "enabled")
            let url = try reader.requiredString(forKey: "assetsUrl")
            guard url.isEmpty || Self.isAssetsURL(url) else {
                throw ConfigError.invalid(
                    "explorer.assetsUrl", expected: "empty (the CDN) or an http(s) URL without a query, quotes or spaces", found: url)
            }
            assetsURL = url.isEmpty ? nil : (url.hasSuffix("/") ? url : url + "/")
        }

        /// An absolute `http`/`https` URL with a host, safe to write into an HTML attribute and
        /// a Content-Security-Policy source list as it is.
        static func isAssetsURL(_ url: String) -> Bool {
            let lower = url.lowercased()
            guard let rest = ["https://", "http://"].first(where: lower.hasPrefix).map({ lower.dropFirst($0.count) }),
                let host = rest.split(separator: "/", omittingEmptySubsequences: false).first, !host.isEmpty
            else { return false }
            let forbidden = Set("\"'<>\\ ;,?#`")
            return url.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F } && !url.contains(where: forbidden.contains)
        }
    }
}
