import Hummingbird

/// The media type a GraphQL response is written in, chosen from the request's `Accept` header
/// as the GraphQL-over-HTTP specification says.
///
/// - `application/graphql-response+json`: status codes tell what happened: 400 when the request
///   failed before execution (syntax, validation, operation selection, variable coercion),
///   200 once execution started.
/// - `application/json` (legacy clients): 200 for every well-formed GraphQL-over-HTTP request,
///   whatever its GraphQL errors.
///
/// Requests that are not well-formed GraphQL-over-HTTP requests (malformed JSON, a missing or
/// non-string `query`, non-object `variables`) get a 4xx in both.
public enum GraphQLHTTPResponseType: Sendable, Equatable {
    case graphQLResponseJSON
    case json

    public var contentType: String {
        switch self {
        case .graphQLResponseJSON: "application/graphql-response+json; charset=utf-8"
        case .json: "application/json; charset=utf-8"
        }
    }

    /// Picks the response type from an `Accept` header; nil when it accepts neither (the
    /// caller answers 406).
    ///
    /// No header means `application/graphql-response+json` (the specification's rule since
    /// its 2025-01-01 watershed). Otherwise the highest `q` wins; among equals an exact type
    /// beats a wildcard, and then the type listed first wins. A bare wildcard (`*/*`,
    /// `application/*`) gets `application/json`, which every client, legacy or not, can read.
    public init?(accept: String?) {
        guard let accept, !accept.allSatisfy(\.isWhitespace) else {
            self = .graphQLResponseJSON
            return
        }
        var best: (type: GraphQLHTTPResponseType, quality: Double, exact: Bool)?
        for range in GraphQLHTTPMediaType.parseList(accept) {
            guard let quality = range.quality, quality > 0, range.acceptsUTF8 else { continue }
            let candidate: (GraphQLHTTPResponseType, Bool)
            switch (range.type, range.subtype) {
            case ("application", "graphql-response+json"): candidate = (.graphQLResponseJSON, true)
            case ("application", "json"): candidate = (.json, true)
            case ("application", "*"), ("*", "*"): candidate = (.json, false)
            default: continue
            }
            if let current = best {
                let better = quality > current.quality || (quality == current.quality && candidate.1 && !current.exact)
                guard better else { continue }
            }
            best = (candidate.0, quality, candidate.1)
        }
        guard let best else { return nil }
        self = best.type
    }
}

extension GraphQLHTTPResponseType {
    /// Whether an `Accept` header asks for a page rather than a GraphQL response: `text/html` is
    /// listed with a weight above every GraphQL response type's (`application/json`,
    /// `application/graphql-response+json`, named exactly), as a browser's address bar sends
    /// (`text/html,...,*/*;q=0.8`). A wildcard alone, `fetch`'s and curl's `*/*`, is no request
    /// for HTML.
    public static func prefersHTML(accept: String?) -> Bool {
        guard let accept else { return false }
        var html = 0.0
        var json = 0.0
        for range in GraphQLHTTPMediaType.parseList(accept) {
            guard let quality = range.quality else { continue }
            switch (range.type, range.subtype) {
            case ("text", "html"): html = max(html, quality)
            case ("application", "json"), ("application", "graphql-response+json"): json = max(json, quality)
            default: continue
            }
        }
        return html > 0 && html > json
    }
}

/// A media type or media range as written in `Content-Type` and `Accept`: lowercased type and
/// subtype, and parameters (names lowercased, values unquoted).
struct GraphQLHTTPMediaType: Equatable {
    var type: String
    var subtype: String
    var parameters: [(name: String, value: String)]

    static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.type == rhs.type && lhs.subtype == rhs.subtype
            && lhs.parameters.elementsEqual(rhs.parameters) { $0.name == $1.name && $0.value == $1.value }
    }

    func parameter(_ name: String) -> String? {
        parameters.first { $0.name == name }?.value
    }

    /// The `q` weight of a media range in `Accept` (1 when absent); nil when unparseable.
    var quality: Double? {
        guard let text = parameter("q") else { return 1 }
        guard let value = Double(text), (0...1).contains(value) else { return nil }
        return value
    }

    /// Whether a `charset` parameter, if any, names UTF-8, the only encoding served.
    var acceptsUTF8: Bool {
        guard let charset = parameter("charset")?.lowercased() else { return true }
        return charset == "utf-8" || charset == "utf8"
    }

    /// Parses one media type (`Content-Type`); nil when malformed.
    init?(_ text: some StringProtocol) {
        var pieces = Self.splitOutsideQuotes(text, on: ";")[...]
        guard let essence = pieces.popFirst() else { return nil }
        let names = essence.split(separator: "/", omittingEmptySubsequences: false)
        guard names.count == 2 else { return nil }
        type = names[0].trimmingWhitespace().lowercased()
        subtype = names[1].trimmingWhitespace().lowercased()
        guard Self.isToken(type), Self.isToken(subtype) else { return nil }
        guard let parameters = Self.parameters(pieces) else { return nil }
        self.parameters = parameters
    }

    /// Parses `name=value` parameters (a value may be a quoted string); nil when malformed.
    static func parameters(_ pieces: ArraySlice<Substring>) -> [(name: String, value: String)]? {
        var parameters: [(name: String, value: String)] = []
        for piece in pieces {
            let trimmed = piece.trimmingWhitespace()
            if trimmed.isEmpty { continue }
            guard let equals = trimmed.firstIndex(of: "=") else { return nil }
            let name = trimmed[..<equals].trimmingWhitespace().lowercased()
            var value = trimmed[trimmed.index(after: equals)...].trimmingWhitespace()
            if value.count >= 2, value.first == "\"", value.last == "\"" {
                var unquoted = ""
                var escaped = false
                for character in value.dropFirst().dropLast() {
                    if character == "\\", !escaped {
                        escaped = true
                        continue
                    }
                    unquoted.append(character)
                    escaped = false
                }
                value = unquoted
            }
            guard isToken(name) else { return nil }
            parameters.append((name, value))
        }
        return parameters
    }

    /// Parses a comma-separated list (`Accept`), skipping malformed entries.
    static func parseList(_ text: String) -> [GraphQLHTTPMediaType] {
        splitOutsideQuotes(text, on: ",").compactMap { entry in
            entry.allSatisfy(\.isWhitespace) ? nil : GraphQLHTTPMediaType(entry)
        }
    }

    static func splitOutsideQuotes(_ text: some StringProtocol, on separator: Character) -> [Substring] {
        let text = Substring(text)
        var pieces: [Substring] = []
        var start = text.startIndex
        var quoted = false
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" {
                quoted.toggle()
            } else if character == "\\", quoted {
                index = text.index(after: index)
                if index == text.endIndex { break }
            } else if character == separator, !quoted {
                pieces.append(text[start..<index])
                start = text.index(after: index)
            }
            index = text.index(after: index)
        }
        pieces.append(text[start...])
        return pieces
    }

    private static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            byte > 0x20 && byte < 0x7F && !"()<>@,;:\\\"/[]?={}".utf8.contains(byte)
        }
    }
}

extension StringProtocol {
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }),
            let last = lastIndex(where: { !$0.isWhitespace })
        else { return "" }
        return String(self[first...last])
    }
}
